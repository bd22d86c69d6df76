"""Regenerate `corpus/receipts/fleet-receipts.csv`, the sample fleet and office receipts.

The rows are invented for this project; a fixed seed makes the file reproducible:
    python examples/make_receipts.py
"""

from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

VENDORS = {
    "tyres": ["ACME Tyres", "RoadGrip BV", "Leipzig Reifen GmbH"],
    "fuel": ["Shell Rotterdam", "Aral Leipzig"],
    "maintenance": ["Van Dijk Garage", "AutoService Sachsen"],
    "office": ["Paperworks", "OfficeHub"],
    "equipment": ["ToolDepot", "SafetyFirst Supplies"],
}
ITEMS = {
    "tyres": [
        ("Winter tire 215/65 R16", 118.0),
        ("Summer tire 215/65 R16", 96.0),
        ("All-season tire 205/75 R16C", 132.0),
        ("Tire fitting and balancing", 22.5),
    ],
    "fuel": [("Diesel", 1.72)],
    "maintenance": [("Oil change", 89.0), ("Brake pads front axle", 164.0), ("Annual inspection", 120.0)],
    "office": [("Printer paper A4 box", 28.0), ("Toner cartridge", 74.0), ("Whiteboard markers", 9.5)],
    "equipment": [("Safety harness", 145.0), ("Cordless drill", 189.0), ("Cable crimping tool", 56.0)],
}
WEIGHTS = {"tyres": 3, "fuel": 4, "maintenance": 2, "office": 2, "equipment": 2}


def main() -> None:
    rng = random.Random(20261121)
    rows = []
    start = dt.date(2021, 1, 1)
    for i in range(420):
        category = rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        item, price = rng.choice(ITEMS[category])
        quantity = rng.randint(20, 90) if category == "fuel" else rng.choice([1, 1, 2, 4])
        day = start + dt.timedelta(days=rng.randrange(5 * 365))
        rows.append(
            {
                "receipt_id": f"R-{day.year}-{i + 1:04d}",
                "date": day.isoformat(),
                "vendor": rng.choice(VENDORS[category]),
                "item_desc": item,
                "category": category,
                "quantity": quantity,
                "unit_price_eur": f"{price:.2f}",
                "total_eur": f"{price * quantity:.2f}",
                "depot": rng.choice(["Rotterdam", "Leipzig"]),
            }
        )
    rows.sort(key=lambda r: (r["date"], r["receipt_id"]))
    target = Path(__file__).resolve().parent / "corpus" / "receipts" / "fleet-receipts.csv"
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {target}")


if __name__ == "__main__":
    main()
