#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the tests and for trying `batch --shard auto` by hand.
#   scripts/slurm-cluster.sh start   installs Debian's Slurm and MUNGE when missing, starts munged, slurmctld
#                                    and slurmd (no systemd needed), waits until the node is idle, and prints
#                                    the SLURM_CONF to export
#   scripts/slurm-cluster.sh stop    stops the daemons this script started (and only those)
# Everything lives under $SLURM_TEST_ROOT (default /tmp/inertia-lens-slurm): key, sockets, state, logs.
set -euo pipefail
ROOT=${SLURM_TEST_ROOT:-/tmp/inertia-lens-slurm}
CONF=$ROOT/slurm.conf
cmd=${1:-start}

# Stops each daemon and waits for it to go (slurmctld saves its state first), killing it after 10 s.
stop() {
  for d in slurmd slurmctld munged; do
    [ -f "$ROOT/$d.pid" ] || continue
    pid=$(cat "$ROOT/$d.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$ROOT/$d.pid"
  done
}
if [ "$cmd" = stop ]; then stop; exit 0; fi
[ "$cmd" = start ] || { echo "usage: $0 start|stop" >&2; exit 64; }

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  echo "installing Debian's Slurm and MUNGE…" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >&2
fi
PATH=$PATH:/usr/sbin

# Already running (from an earlier start): reuse it.
if [ -f "$ROOT/slurmctld.pid" ] && kill -0 "$(cat "$ROOT/slurmctld.pid")" 2>/dev/null && SLURM_CONF=$CONF sinfo -h -o %T 2>/dev/null | grep -qE 'idle|mix|alloc'; then
  echo "$CONF"; exit 0
fi
stop
mkdir -p "$ROOT/munge" "$ROOT/state" "$ROOT/spool" "$ROOT/log"
chmod 700 "$ROOT/munge"
[ -f "$ROOT/munge/munge.key" ] || { dd if=/dev/urandom of="$ROOT/munge/munge.key" bs=1024 count=1 status=none; chmod 400 "$ROOT/munge/munge.key"; }
munged --force --key-file="$ROOT/munge/munge.key" --socket="$ROOT/munge/munge.socket" \
  --pid-file="$ROOT/munged.pid" --log-file="$ROOT/log/munged.log" --seed-file="$ROOT/munge/munge.seed"

user=$(id -un)
# The node as slurmd sees it (CPUs, cores, memory), reached on the loopback address.
node=$(slurmd -C | head -1)
cat > "$CONF" <<CONF
ClusterName=inertialens
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$ROOT/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$ROOT/state
SlurmdSpoolDir=$ROOT/spool
SlurmctldPidFile=$ROOT/slurmctld.pid
SlurmdPidFile=$ROOT/slurmd.pid
SlurmctldLogFile=$ROOT/log/slurmctld.log
SlurmdLogFile=$ROOT/log/slurmd.log
SlurmctldPort=${SLURM_TEST_PORT:-16817}
SlurmdPort=$(( ${SLURM_TEST_PORT:-16817} + 1 ))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$CONF
slurmctld -f "$CONF"
slurmd -f "$CONF"
for _ in $(seq 1 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then echo "$CONF"; exit 0; fi
  sleep 0.5
done
echo "slurm did not become ready; logs in $ROOT/log" >&2
tail -5 "$ROOT/log/slurmctld.log" "$ROOT/log/slurmd.log" >&2 || true
stop
exit 1
