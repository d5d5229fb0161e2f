#!/usr/bin/env bash
# CTest (label qemu): a model file that no build has seen before, written here, verifies on
# every Cortex-M target with its default scalar: within tolerance of the reference core and
# bit for bit equal to the host. It calls every elementary function of the model language
# (through the portable libm) and sqrt, abs, min, max and step.
# Usage: new_model.sh CLI
set -uo pipefail
cli=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/heated_valve.yaml" <<'YAML'
name: heated_valve
description: |
  Test model, written by tests/target/new_model.sh: a slow thermal mass T whose heater is
  driven through a fast valve actuator (position p, rate v), with smooth nonlinearities that
  exercise every elementary function; no physical claim is made.
parameters:
  k: 400.0
  c: 40.0
  tau: 2.0
  T_amb: 0.3
inputs:
  u: 0.5
states:
  slow:
    T: 0.2
  fast:
    p: 0.0
    v: 0.0
variables:
  flow: sqrt(abs(p) + 0.01)*exp(-0.5*T)
  loss: (T - T_amb)*(1 + 0.1*tanh(T) + 0.05*atan(T) + 0.01*atan2(T, 1 + p*p))
equations:
  T: (flow*(1 + 0.1*log(1 + T*T)) - loss + 0.01*sinh(0.1*T) - 0.01*cosh(0.1*T) + 0.01)/tau
  p: v
  v: k*(min(max(u, 0), 1) - p) - c*v + 0.1*sin(T)*cos(p) + 0.01*tan(0.1*p) + 0.01*asin(0.5*sin(p)) + 0.001*acos(0.5*cos(p)) + 0.001*pow(1 + T*T, 0.3)*step(T)
outputs:
  heat: flow
simulation:
  t_end: 2.0
  scheme: rk4
  step: 1.0e-3
  inputs:
    u: 0.5 + 0.4*sin(3*t)
YAML
status=0
for target in cortex-m3 cortex-m4f cortex-m7; do
  json=$("$cli" verify "$work/heated_valve.yaml" --target "$target" --every 10 --json 2>&1)
  echo "$json"
  if ! grep -q '"pass":true' <<<"$json" || ! grep -q '"bit_exact_vs_host":true' <<<"$json"; then
    echo "FAIL: $target"
    status=1
  fi
done
exit $status
