"""The Russian words that ask for a property of an API entry (`words.en.entries` says what each
is): «стабильность», «по умолчанию», «класс Error», «модуль assert»."""

STABILITY = r"стабильн\w*"
SIGNATURE = r"сигнатур\w*|конструктор\w*|параметр\w*|аргумент\w*"
DEFAULT = r"по\s+умолчанию"
TYPE = r"\bкакого\s+типа\b|\bтип\b"
IMPORT = r"импорт\w*|подключ\w*"
HISTORY = r"истори\w*|добавлен\w*|появил\w*"
DEPRECATION = r"устаре\w*"
EXAMPLE = r"пример\w*"
KIND = r"класс\w*|метод\w*|функци\w*|модул\w*|свойств\w*|событи\w*|параметр\w*"
MODULE_NAMED = r"модул\w*\s+([A-Za-z_$][\w$:.]*)"
