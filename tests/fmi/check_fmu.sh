#!/bin/sh
# CTest (label fmi): an FMU written by `dualrate fmu`, run by the project's own importer
# (tests/fmi/fmu_importer.cpp), against `dualrate simulate` of the same scheme at the same points
# (docs/fmi.md#how-it-is-tested). Each CASE builds its FMU (about 4 s), unzips it, runs the
# importer and compares its trace with simulate's, column by column at the same times, within
# the case's largest absolute difference (0: bit for bit).
# Usage: sh check_fmu.sh DUALRATE FMU_IMPORTER SOURCE_DIR WORK_DIR CASE
set -eu
[ $# -eq 5 ] || { echo "usage: $0 DUALRATE FMU_IMPORTER SOURCE_DIR WORK_DIR CASE" >&2; exit 2; }
dualrate=$1 importer=$2 source_dir=$3 work=$4 case_name=$5
motor=$source_dir/tests/models/calibration/motor.yaml
driveline=$source_dir/models/vehicle_driveline.yaml
servo=$source_dir/models/servo_motor.yaml
rm -rf "$work" && mkdir -p "$work" && cd "$work"

say() { echo "== $*"; }
# fmu NAME MODEL OPTIONS...: NAME.fmu from `dualrate fmu`, unzipped into NAME/.
fmu() {
  name=$1
  shift
  say "dualrate fmu $* -o $name.fmu"
  "$dualrate" fmu "$@" -o "$name.fmu" >/dev/null
  unzip -q -o "$name.fmu" -d "$name"
}
# simulate OUT.csv MODEL OPTIONS...: simulate's CSV trace.
simulate() {
  out=$1
  shift
  say "dualrate simulate $* > $out"
  "$dualrate" simulate "$@" >"$out"
}
# import OUT.csv DIR OPTIONS...: the importer's trace (its log in OUT.csv.log, shown on failure).
import() {
  out=$1
  shift
  say "fmu_importer $* > $out"
  "$importer" "$@" >"$out" 2>"$out.log" || { code=$?; cat "$out.log" >&2; exit "$code"; }
}
# same A.csv B.csv TOLERANCE [COLUMNS]: the common columns (or COLUMNS) within TOLERANCE.
same() {
  say "compare $1 $2, tolerance $3"
  if [ $# -ge 4 ]; then
    "$importer" --compare "$1" "$2" --tolerance "$3" --columns "$4"
  else
    "$importer" --compare "$1" "$2" --tolerance "$3"
  fi
}
# refused_step DIR STEP UNIT: doStep(0, STEP) must return an error status, with a message that
# names the step asked and the unit it is not a whole number of (UNIT: "steps h" or "macro
# steps H"), and nothing printed from a null string.
refused_step() {
  say "fmu_importer $1 --expect-refused-step $2"
  "$importer" "$1" --expect-refused-step "$2" 2>refused_step.log || { cat refused_step.log >&2; exit 1; }
  cat refused_step.log
  grep -q "is not a whole number of $3 = " refused_step.log || { echo "no log message naming $3" >&2; exit 1; }
  if grep -q "(null)" refused_step.log; then
    echo "the log message prints a null string: '(null)'" >&2
    exit 1
  fi
}

# The motor (rk4, h = 1e-5) stepped at 1e-4 = 10 h to t_end 0.02, against simulate's every 10th
# row, bit for bit: the FMU runs the generated step, simulate the reference core's rk4, both in
# double with the same operations.
motor_rk4() {
  version=$1
  fmu motor "$motor" --scheme rk4 --step 1e-5 --fmi-version "$version"
  import fmu.csv motor --step 1e-4 --t-end 0.02
  simulate simulate.csv "$motor" --scheme rk4 --step 1e-5 --every 10
  same fmu.csv simulate.csv 0
}

# Model exchange under the importer's CVODE (BDF) at 1e-10 (absolute and relative) against
# simulate's high-accuracy solution (`--scheme reference`: dopri5 at 1e-12), on the states.
# CVODE holds each step's local error to about 1e-10 (1 + |x|); what the steps leave adds up
# over the run to a global error of a few hundred times that (6.3e-8 rad/s measured on omega,
# 1.3e-8 A on I, values of at most 1.2 rad/s and 12 A). 1e-6 leaves a factor 16 for another
# SUNDIALS or libm while any wrong derivative, input or state (errors of order 1e-3 and up
# after 200 points) fails.
motor_me() {
  version=$1
  fmu motor "$motor" --scheme rk4 --step 1e-5 --fmi-version "$version"
  import fmu.csv motor --interface me --step 1e-4 --t-end 0.02 --tolerance 1e-10
  simulate reference.csv "$motor" --scheme reference --step 1e-5 --every 10
  same fmu.csv reference.csv 1e-6 omega,I
}

# servo_motor (its R, Kt and friction map tunable) by rk4 at its h = 1e-4, its scenario's
# inputs (V's steps at 5 and 120 ms, the load's at 60 ms, all on the step grid) read from the
# trace of simulate's high-accuracy solution (`--scheme reference`: dopri5 at 1e-12), against
# that solution on the states, at the model's values and with R = 1.5 set as a start value
# (its constants recomputed by the FMU). Each step of V or the load excites the fast mode
# (-962.6 1/s at R = 1, -1462 at 1.5; h lambda = -0.096 and -0.146), of which rk4's step
# misses |z|^5/120 of the amplitude (7e-8 and 5.4e-7); the fast mode decays by e^z a step,
# so the error on I is at most amplitude x |z|^5/120 / (1 - e^-|z|): 24 A x 7.4e-7 = 1.8e-5 A
# at R = 1, 16 A x 4e-6 = 6.4e-5 A at R = 1.5 (the amplitude V/R). omega integrates that
# error times Kt/J = 600 over the fast mode's 1 ms (6.4e-5 x 600 x 1e-3 = 3.8e-5 rad/s), theta
# omega's over its 27.8 ms. The 1e-4 holds the largest of these bounds with a margin
# of 1.6 (measured: see the log's max |A - B|).
servo_inputs() {
  version=$1
  fmu servo "$servo" --scheme rk4 --step 1e-4 --fmi-version "$version"
  simulate reference.csv "$servo" --scheme reference --step 1e-4
  import fmu.csv servo --step 1e-4 --t-end 0.2 --inputs reference.csv
  same fmu.csv reference.csv 1e-4 theta,omega,I
  simulate reference_r.csv "$servo" --scheme reference --step 1e-4 --param R=1.5
  import fmu_r.csv servo --step 1e-4 --t-end 0.2 --inputs reference.csv --start R=1.5
  same fmu_r.csv reference_r.csv 1e-4 theta,omega,I
}

case $case_name in
  cs3.motor_rk4) motor_rk4 3 ;;
  cs2.motor_rk4) motor_rk4 2 ;;
  me3.motor) motor_me 3 ;;
  me2.motor) motor_me 2 ;;
  cs3.servo_inputs) servo_inputs 3 ;;
  cs2.servo_inputs) servo_inputs 2 ;;
  me3.servo)
    # Model exchange under CVODE at 1e-10 (relative and absolute) against the high-accuracy
    # solution, the scenario's inputs from its trace, within the 1e-5 on the states
    # (values up to 380 rad/s and 60 rad: 2.6e-8 and 1.7e-7 of them relative). CVODE's global
    # error is a few hundred times its local tolerance, as on the motor above: 4.7e-6 rad/s
    # measured on omega (1.7e-8 of 283 rad/s), 1.2e-7 rad on theta, 3e-7 A on I, within the
    # bound by a factor 2.1; a wrong derivative or input misses it by orders.
    fmu servo "$servo" --scheme rk4 --step 1e-4
    simulate reference.csv "$servo" --scheme reference --step 1e-4
    import fmu.csv servo --interface me --step 1e-4 --t-end 0.2 --tolerance 1e-10 --inputs reference.csv
    same fmu.csv reference.csv 1e-5 theta,omega,I
    ;;
  cs3.motor_float)
    # A float FMU takes communication steps of the declared h's multiples (h = 1e-5 is not a
    # float: the FMU counts whole steps of the declared h, as the generated step counts its own).
    # Against double simulate, the float run's rounding: each of its 2000 steps adds an error of
    # about 4 ulps of float (2.4e-7) relative to I's 12 A, which the fast mode (-1e4 1/s, h
    # lambda = -0.1) damps within about 10 steps: |error| <= 12 A x 2.4e-7 x 10 = 3e-5 A, and
    # omega (1.2 rad/s at most, integrating I) far less: 1e-4 absolute is three times that bound
    # (measured: 2.3e-6 A on I, 1.9e-7 rad/s on omega).
    fmu motor "$motor" --scheme rk4 --step 1e-5 --scalar float
    import fmu.csv motor --step 1e-4 --t-end 0.02
    simulate simulate.csv "$motor" --scheme rk4 --step 1e-5 --every 10
    same fmu.csv simulate.csv 1e-4 omega,I
    ;;
  cs3.tunable_start)
    # A tunable start value: the FMU's constants recomputed at R = 1.5 (tau = L/R among them)
    # equal simulate's model with R = 1.5, bit for bit.
    fmu motor "$motor" --scheme rk4 --step 1e-5
    import fmu.csv motor --step 1e-4 --t-end 0.02 --start R=1.5
    simulate simulate.csv "$motor" --scheme rk4 --step 1e-5 --every 10 --param R=1.5
    same fmu.csv simulate.csv 0
    ;;
  cs3.refused_value)
    # R = 5 is above R's max 2: the set returns an error status, with a message, and the
    # importer stops with exit code 3.
    fmu motor "$motor" --scheme rk4 --step 1e-5
    say "fmu_importer motor --start R=5 (refused: exit code 3)"
    code=0
    "$importer" motor --step 1e-4 --t-end 0.02 --start R=5 >refused.csv 2>refused.log || code=$?
    cat refused.log
    [ "$code" -eq 3 ] || { echo "fmu_importer exited $code, not 3 (the start value refused)" >&2; exit 1; }
    grep -q "R = 5 is refused" refused.log || { echo "no log message naming R = 5" >&2; exit 1; }
    ;;
  cs3.refused_step)
    # 1.5e-5 is not a whole number of steps h = 1e-5.
    fmu motor "$motor" --scheme rk4 --step 1e-5
    refused_step motor 1.5e-5 "steps h"
    ;;
  cs3.two_instances)
    # Two instances in one process, instance 1 at R = 1.5: each equals its own simulate, bit for
    # bit (they share no constants and no state).
    fmu motor "$motor" --scheme rk4 --step 1e-5
    import fmu0.csv motor --step 1e-4 --t-end 0.02 --instances 2 --start-of 1 R=1.5 --trace-of 1 fmu1.csv
    simulate simulate0.csv "$motor" --scheme rk4 --step 1e-5 --every 10
    simulate simulate1.csv "$motor" --scheme rk4 --step 1e-5 --every 10 --param R=1.5
    same fmu0.csv simulate0.csv 0
    same fmu1.csv simulate1.csv 0
    ;;
  cs3.sp_ll_tunable)
    # sp_ll at h = 1e-3, stepped at h. At the model's values the FMU's constants are the ones the
    # generator computed, as the header has them; with R = 1.5 set as a start value the FMU
    # recomputes the exponentials at run time (the runtime's expm, dualrate/expm.hpp). simulate's
    # reference core steps sp_ll in its own order of operations (not the generated code's), so
    # neither is bit for bit: 3.2e-14 measured at the model's values, 2.6e-14 at R = 1.5, on I ~
    # 8-12 A. 1e-12 absolute is about 1e-13 relative to I's 12 A: a few hundred ulps of the
    # largest state, well clear of the rounding, while a constant left at R = 1 (differences of
    # order 1 A) fails.
    fmu motor "$motor" --scheme sp_ll --step 1e-3
    import model_values.csv motor --step 1e-3 --t-end 0.02
    simulate simulate_model_values.csv "$motor" --scheme sp_ll --step 1e-3
    same model_values.csv simulate_model_values.csv 1e-12
    import fmu.csv motor --step 1e-3 --t-end 0.02 --start R=1.5
    simulate simulate.csv "$motor" --scheme sp_ll --step 1e-3 --param R=1.5
    same fmu.csv simulate.csv 1e-12
    ;;
  se3.mrabm4_threads)
    # The same with the slow partitions in a second thread, overlapping the fast partitions of
    # the ticks that follow (each slow job ends before the next release): the tasks exchange
    # their data at the releases only, so the rows are the sequential run's, bit for bit.
    fmu motor "$motor" --scheme mrabm4 --step 1e-5 --ratio 10 --scheduled
    import fmu.csv motor --interface se --t-end 0.02 --threads
    import sequential.csv motor --interface se --t-end 0.02
    same fmu.csv sequential.csv 0
    ;;
  se3.mrabm4_ticks)
    # Scheduled Execution of mrabm4's tasks (h = 1e-5, H = 10 h), the importer a sequential
    # scheduler: the state and outputs the fast partition gives at each of the 2000 ticks equal,
    # bit for bit, the rows verify's task program prints before each fast task (ticks.csv, which
    # verify checks against the reference core's, also bit for bit).
    fmu motor "$motor" --scheme mrabm4 --step 1e-5 --ratio 10 --scheduled
    import fmu.csv motor --interface se --t-end 0.02
    say "dualrate verify --scheme mrabm4 --tasks single --keep verify"
    "$dualrate" verify "$motor" --scheme mrabm4 --step 1e-5 --ratio 10 --t-end 0.02 --tasks single --keep verify \
      >verify.log 2>&1 || { cat verify.log >&2; exit 1; }
    same fmu.csv verify/ticks.csv 0
    ;;
  cs3.mrabm4)
    # vehicle_driveline (slow: w_w, e_int; fast: w_e, phi, throttle) by mrabm4's tasks, h = 1e-3,
    # H = 10 h, stepped at H over its whole scenario (t_end 10 s): the set speed's step at 1 s
    # from simulate's own trace (--inputs) and the scenario's calibration writes made with
    # --set-at (k_p at 3 s, k_i at 5 s, the torque map, a table, as one array at 7 s, and
    # k_p = 0.5 at 8 s, which both refuse). Within 1e-12 absolute (on values up to 2500 rpm):
    # the run is bit for bit here (0 measured: the tasks' sequential run in double, as
    # simulate's), the bound only leaves room for another compiler's or libm's last bits.
    fmu driveline "$driveline" --scheme mrabm4 --step 1e-3 --ratio 10
    simulate simulate.csv "$driveline" --scheme mrabm4 --step 1e-3 --ratio 10 --every 10
    torque=-8.0498,106.704,-16.9182,127.452,-26.6052,139.308,-37.1108,150.423,-48.4351,157.092,-60.578,154.128
    torque=$torque,-73.5395,151.164,-87.3196,151.905,-101.918,157.092,-117.336,156.351,-133.572,152.646
    torque=$torque,-150.626,143.754
    import fmu.csv driveline --step 1e-2 --t-end 10 --inputs simulate.csv --set-at 3 k_p=0.12 --set-at 5 k_i=0.03 \
      --set-at 7 "TORQUE=$torque" --set-at 8 k_p=0.5
    cat fmu.csv.log
    grep -q "refused: k_p=0.5" fmu.csv.log || { echo "k_p = 0.5 at 8 s was not refused" >&2; exit 1; }
    same fmu.csv simulate.csv 1e-12
    # 1.5e-2 is not a whole number of macro steps H = 1e-2.
    refused_step driveline 1.5e-2 "macro steps H"
    ;;
  cs3.rebuild)
    # The binary rebuilt from the FMU's sources as sources/buildDescription.xml lists them (its
    # compiler options, defines, include directories and source files), then motor_rk4's check.
    fmu motor "$motor" --scheme rk4 --step 1e-5
    binary=$(ls motor/binaries/x86_64-linux/*.so)
    rm -f "$binary"
    say "${CXX:-c++} -shared -fPIC \$(fmu_importer --build-args motor) -o $binary"
    # One argument a line (the paths of the work directory have no spaces).
    args=$("$importer" --build-args motor)
    # shellcheck disable=SC2086
    "${CXX:-c++}" -shared -fPIC $args -o "$binary"
    import fmu.csv motor --step 1e-4 --t-end 0.02
    simulate simulate.csv "$motor" --scheme rk4 --step 1e-5 --every 10
    same fmu.csv simulate.csv 0
    ;;
  *)
    echo "unknown case $case_name" >&2
    exit 2
    ;;
esac
