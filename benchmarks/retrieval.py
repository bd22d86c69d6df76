"""Retrieval quality on BEIR NFCorpus (tune here) and SciFact (report only), through the product.

    python benchmarks/retrieval.py [../shared/data]

Runs `threadwise eval retrieval DIR --json` for each dataset, writes benchmarks/results/<name>.json
and prints the table that goes into BENCHMARKS.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATASETS = ("beir-nfcorpus", "beir-scifact")


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parent.parent / "shared" / "data"
    (HERE / "results").mkdir(exist_ok=True)
    print("| dataset | mode | nDCG@10 | Recall@100 | MRR@10 |\n|---|---|---|---|---|")
    for name in DATASETS:
        done = subprocess.run(
            ["threadwise", "eval", "retrieval", str(root / name), "--json"], capture_output=True, text=True, check=True
        )
        result = json.loads(done.stdout)
        (HERE / "results" / f"{name}.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
        for mode, metrics in result["modes"].items():
            cells = " | ".join(f"{metrics[k]:.3f}" for k in ("ndcg_at_10", "recall_at_100", "mrr_at_10"))
            print(f"| {name} | {mode} | {cells} |")
        print(f"<!-- {name} timings: {result['timings']} -->")


if __name__ == "__main__":
    main()
