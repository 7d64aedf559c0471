"""The Russian words around the periods and releases a question names (`words.en.periods` says
what each is): «между … и …», «с … по …», «пункт 3.1», «в версии 2.1», «в EU»."""

JOINERS = r"между|и|с|по"
BETWEEN = r"между"
AND = r"и"
IN = r"в|во"
RANGE_OPEN = r"между|с|со"
RANGE_JOIN = r"и|по|до"
NOT_A_RELEASE = r"раздел\w*|пункт\w*|глав\w*|шаг\w*|табл\w*|рис\w*|стр\.?|стать\w*"
GOVERNING = r"в|во|для|с|со|до|на"
RELEASE_CUE = r"верси[яиюейям]\w*|релиз\w*|выпуск\w*|прошивк\w*|сборк\w*"
RELEASE_WORDS = r"верси[яиюейям]\w*|релиз\w*"
FACET_LEAD = r"(?<!\w)(?:в|для|на)\s+"
