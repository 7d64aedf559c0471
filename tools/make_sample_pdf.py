"""Regenerate the sample PDF `situated/sample/docs/pump-p2-maintenance.pdf`.

Run by hand only (needs `pip install reportlab`); the PDF itself is committed so that nothing at
install or test time needs reportlab.
"""

from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

OUT = Path(__file__).resolve().parents[1] / "situated/sample/docs/pump-p2-maintenance.pdf"

PAGES = [
    [
        ("h", "1 Isolation"),
        ("p", "Before any work on pump P-2, close suction valve V-21 and discharge valve V-22,"),
        ("p", "lock out breaker B-12 and confirm zero pressure on gauge PG-2."),
        ("h", "2 Lubrication"),
        ("p", "Grease the P-2 bearings every 2,000 operating hours with 15 g of grade LG-2"),
        ("p", "grease per bearing. Do not over-grease: excess grease raises bearing temperature."),
    ],
    [
        ("h", "3 Coupling alignment"),
        ("p", "Align the P-2 motor coupling after every motor change or when vibration exceeds"),
        ("p", "4.5 mm/s. The permitted misalignment is 0.05 mm parallel and 0.05 mm angular."),
        ("p", "Recheck the alignment after the first 24 hours of operation."),
        ("h", "4 Seal replacement"),
        ("p", "P-2 uses a single cartridge seal. Replace it when the leak rate exceeds"),
        ("p", "10 drops per minute, using seal kit SK-21."),
    ],
]


def main() -> None:
    c = canvas.Canvas(str(OUT), pagesize=A4)
    c.setTitle("Pump P-2 maintenance manual")
    for n, page in enumerate(PAGES):
        y = 800
        if n == 0:
            c.setFont("Helvetica-Bold", 16)
            c.drawString(60, y, "Pump P-2 maintenance manual")
            y -= 40
        for kind, text in page:
            c.setFont("Helvetica-Bold" if kind == "h" else "Helvetica", 13 if kind == "h" else 11)
            if kind == "h":
                y -= 10
            c.drawString(60, y, text)
            y -= 20
        c.showPage()
    c.save()


if __name__ == "__main__":
    main()
