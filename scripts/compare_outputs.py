#!/usr/bin/env python3
"""Compare two program outputs (files or filtered stdout) produced on two OpenCL platforms.

Prints one word and exits 0: "same" (byte for byte), "close" (same tokens except numbers that
agree within a relative tolerance, i.e. float rounding), or "differs: <first difference>".
Used by scripts/rodinia.sh; the tolerance is the first optional argument (default 1e-4)."""
import re
import sys

NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def tokens(path):
    with open(path, "rb") as f:
        return f.read().decode("latin-1").split()


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: compare_outputs.py REFERENCE OTHER [RELATIVE_TOLERANCE]")
    ref_path, other_path = sys.argv[1], sys.argv[2]
    tolerance = float(sys.argv[3]) if len(sys.argv) == 4 else 1e-4
    with open(ref_path, "rb") as a, open(other_path, "rb") as b:
        if a.read() == b.read():
            print("same")
            return
    ref, other = tokens(ref_path), tokens(other_path)
    if len(ref) != len(other):
        print(f"differs: {len(ref)} tokens against {len(other)}")
        return
    for i, (x, y) in enumerate(zip(ref, other)):
        if x == y:
            continue
        if NUMBER.match(x) and NUMBER.match(y):
            fx, fy = float(x), float(y)
            if abs(fx - fy) <= tolerance * max(abs(fx), abs(fy), 1e-30) or abs(fx - fy) < 1e-12:
                continue
        print(f"differs: token {i}: {x} against {y}")
        return
    print("close")


if __name__ == "__main__":
    main()
