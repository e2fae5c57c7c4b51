#!/usr/bin/env bash
# The ALU loop of `ventus bench -k aluloop` against qemu-riscv32 running the same loop body
# (the lines between the "loop body" markers of bench/kernels/aluloop.s: 4 vector and 2
# scalar instructions) with vl = 32, each per CPU second. Prints both rates in
# thread-instructions per second (a vector instruction counts its 32 elements, a scalar
# instruction 1: what `ventus bench` counts) and their ratio. See docs/performance.md.
#
#   scripts/bench_vs_qemu.sh [VENTUS_BENCH_OPTION...]     e.g. --scale 4, --jit on
#
# Ventus runs with one host thread, so its wall time is its CPU time. qemu's figure is the
# user + system time of the whole process, start-up included (about 10 ms). Before timing,
# both programs' results are checked: Ventus's by the bench suite's host reference, qemu's
# against the same rounds computed here for lanes 0-31.
# Environment: VENTUS_BUILD_DIR (default build), QEMU_ROUNDS (default 100000000).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$repo" && cd "${VENTUS_BUILD_DIR:-build}" && pwd)
ventus=$build/tools/ventus/ventus
rounds=${QEMU_ROUNDS:-100000000}
for tool in riscv64-unknown-elf-as riscv64-unknown-elf-ld qemu-riscv32 python3; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is not installed (scripts/setup.sh installs it)" >&2; exit 1; }
done
[ -x "$ventus" ] || { echo "$0: $ventus is not built" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
body=$(sed -n '/^# --- loop body ---$/,/^# --- end of loop body ---$/p' "$repo/bench/kernels/aluloop.s")
[ -n "$body" ] || { echo "$0: no loop body markers in bench/kernels/aluloop.s" >&2; exit 1; }

# Lanes 0-31 of one warp: a = lane, b = lane + 7, t0 = the rounds; then b goes to stdout.
program() {
  cat <<EOF
    .text
    .globl _start
_start:
    li t1, 32
    vsetvli t2, t1, e32, m1, ta, ma
    vid.v v0
    vadd.vi v1, v0, 0
    vadd.vi v2, v0, 7
    li t0, $1
$body
    la a1, out
    vse32.v v2, (a1)
    li a7, 64
    li a0, 1
    li a2, 128
    ecall
    li a7, 93
    li a0, 0
    ecall
    .bss
out: .space 128
EOF
}
cpu="rv32,v=true,vext_spec=v1.0,vlen=1024,elen=32"
build_program() {
  program "$1" >"$work/loop.s"
  riscv64-unknown-elf-as -march=rv32imv -mabi=ilp32 "$work/loop.s" -o "$work/loop.o"
  riscv64-unknown-elf-ld -m elf32lriscv -e _start "$work/loop.o" -o "$work/loop"
}

# The loop body's result on qemu, checked for a short run.
check_rounds=1000
build_program $check_rounds
got=$(qemu-riscv32 -cpu "$cpu" "$work/loop" | od -An -v -tu4 | tr -s ' \n' ' ' | sed 's/^ //;s/ $//')
expected=$(python3 -c "
m = 0xffffffff
out = []
for i in range(32):
    a, b = i, i + 7
    for _ in range($check_rounds):
        a = (a + b) & m; b ^= a; b = (b + ((a << 3) & m)) & m
    out.append(str(b))
print(' '.join(out))")
if [ "$got" != "$expected" ]; then
  echo "$0: qemu-riscv32 computed a different result for the loop body:" >&2
  echo "  got      $got" >&2
  echo "  expected $expected" >&2
  exit 1
fi

build_program "$rounds"
TIMEFORMAT='%U %S'
seconds=$({ time qemu-riscv32 -cpu "$cpu" "$work/loop" >/dev/null; } 2>&1 | awk '{print $1 + $2}')
qemu_rate=$(python3 -c "print(f'{$rounds * (4 * 32 + 2) / $seconds / 1e6:.1f}')")

line=$("$ventus" bench -k aluloop --host-threads 1 --repeat 3 "$@" | awk '$1 == "aluloop"')
[[ "$line" == *" ok" ]] || { echo "$0: ventus bench failed: $line" >&2; exit 1; }
ventus_rate=$(awk '{print $(NF-1)}' <<<"$line")
ventus_seconds=$(awk '{print $(NF-2)}' <<<"$line")

echo "ALU loop (4 vector + 2 scalar instructions, vl = 32), M thread-insn per CPU second:"
printf '  %-34s %10s  (%s rounds, %s s)\n' "qemu-riscv32 $(qemu-riscv32 --version | awk 'NR == 1 {print $3}')" "$qemu_rate" "$rounds" "$seconds"
printf '  %-34s %10s  (%s s)\n' "ventus bench -k aluloop $*" "$ventus_rate" "$ventus_seconds"
python3 -c "print(f'  ventus / qemu: {$ventus_rate / $qemu_rate:.3f}')"
