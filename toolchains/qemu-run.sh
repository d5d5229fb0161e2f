#!/usr/bin/env bash
# Runs a Cortex-M program built with the dualrate toolchain files under qemu-system-arm:
#   qemu-run.sh BOARD PROGRAM.elf [ARGS...]
# ARGS reach the program's main through the semihosting command line; its output (semihosting)
# is this script's stdout, QEMU's own messages stay on stderr, and its exit status is
# the program's. DUALRATE_QEMU_TIMEOUT (seconds, default 300) bounds the run: a fault that
# locks QEMU up ends as status 124.
set -euo pipefail
board=$1 program=$2
shift 2
board_options=()
# QEMU's SSE-200 gives its first core no FPU unless asked.
[ "$board" = mps2-an521 ] && board_options=(-global sse-200.CPU0_FPU=on -global sse-200.CPU0_DSP=on)
exec timeout -k 5 "${DUALRATE_QEMU_TIMEOUT:-300}" qemu-system-arm -M "$board" "${board_options[@]}" -display none -serial none -monitor none \
  -chardev stdio,id=c0 -semihosting-config enable=on,target=native,chardev=c0 -kernel "$program" -append "$*"
