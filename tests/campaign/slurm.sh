#!/usr/bin/env bash
# The project whole.sh ran, submitted to a real Slurm on this machine: munge and a one-node
# slurmctld + slurmd (a slurm.conf in WORK, ports of their own) are started here, the campaign
# runs as an array of 3 shards (scripts/campaign-shard.sbatch, sbatch --wait), the shards are
# merged and compared with the whole run (equal but for the timings); the daemons are stopped.
# Exit status 77 (skipped) with the reason only where Slurm cannot start here.
# Usage: slurm.sh DUALRATE SOURCE_DIR WORK (WORK as whole.sh left it)
set -euo pipefail
dualrate=$1 src=$2 work=$3
. "$src/tests/campaign/common.sh"
skip() {
  echo "SKIP: Slurm cannot start here: $*" >&2
  exit 77
}
for program in munged slurmctld slurmd sbatch sinfo; do
  command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] || skip "no $program (Debian: slurm-wlm munge; scripts/deps installs them)"
done
export PATH="$PATH:/usr/sbin"
[ -f "$work/whole.json" ] || fail "no $work/whole.json: campaign.whole runs first"
project="$work/project"
slurm="$work/slurm"
rm -rf "$slurm" && mkdir -p "$slurm/state" "$slurm/spool"

started_munge=""
stop() {
  for pid_file in "$slurm/slurmd.pid" "$slurm/slurmctld.pid"; do
    [ -f "$pid_file" ] && kill "$(cat "$pid_file")" 2>/dev/null || true
  done
  if [ -n "$started_munge" ] && [ -f /run/munge/munged.pid ]; then kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true; fi
}
trap stop EXIT

if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || skip "munged is not running and starting it needs root"
  mkdir -p /run/munge
  chown munge:munge /run/munge /var/lib/munge /var/log/munge /etc/munge
  [ -f /etc/munge/munge.key ] || runuser -u munge -- mungekey --create
  runuser -u munge -- munged || skip "munged did not start: $(tail -3 /var/log/munge/munged.log 2>/dev/null)"
  started_munge=yes
  munge -n | unmunge >/dev/null || skip "munge does not answer after starting munged"
fi

host=$(hostname)
cat >"$slurm/slurm.conf" <<CONF
ClusterName=dualrate-campaign-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
StateSaveLocation=$slurm/state
SlurmdSpoolDir=$slurm/spool
SlurmctldPidFile=$slurm/slurmctld.pid
SlurmdPidFile=$slurm/slurmd.pid
SlurmctldLogFile=$slurm/slurmctld.log
SlurmdLogFile=$slurm/slurmd.log
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=campaign Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$slurm/slurm.conf"
slurmctld -i || skip "slurmctld did not start: $(tail -3 "$slurm/slurmctld.log" 2>/dev/null)"
slurmd || skip "slurmd did not start: $(tail -3 "$slurm/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
  [ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %t 2>/dev/null)" = "idle" ] || skip "the node is not idle after 30 s: sinfo says '$(sinfo -h -o %t 2>&1)'; $(tail -3 "$slurm/slurmd.log" 2>/dev/null)"

# Two shards at a time on this machine's cores, one CPU each. squeue is polled (sbatch --wait
# backs off to half a minute between its own polls).
job=$(sbatch --parsable --array=1-3 --cpus-per-task=1 --output="$slurm/shard_%a.out" \
  --export=ALL,CAMPAIGN="$project",SHARDS=3,SHARD_ROOT="$slurm" "$src/scripts/campaign-shard.sbatch") ||
  fail "sbatch refused the array job"
for _ in $(seq 1800); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.5
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "the array job $job has not ended after 15 minutes: $(squeue -j "$job")"
for k in 1 2 3; do
  n=$(ls "$slurm/shard_$k/results" | wc -l)
  [ "$n" -eq 4 ] || fail "Slurm task $k wrote $n results, expected 4: $(tail -5 "$slurm/shard_$k.out")"
  [ -f "$slurm/shard_$k/junit.xml" ] || fail "Slurm task $k left no junit.xml"
done
"$dualrate" campaign report "$project" "$slurm"/shard_{1,2,3} --json >"$slurm/merged.json"
same_summary "$work/whole.json" "$slurm/merged.json" || fail "the Slurm array's summary differs from the whole run's"
echo "slurm: array job $job, 3 tasks of 4 points, merged = the whole run"
