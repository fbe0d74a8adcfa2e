#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, from Debian's packages, for trying and
# testing scripts/slurm-array.sh: the same sbatch, squeue, scancel and time limits as a real
# cluster, with one node holding this machine's cores and memory.
#
# Usage (as root):
#
#   scripts/slurm-local.sh start    # install slurm-wlm and munge if needed, write the config,
#                                   # start munged, slurmctld, slurmd; wait for the node to be idle
#   scripts/slurm-local.sh status   # daemons, sinfo, squeue
#   scripts/slurm-local.sh stop     # stop the daemons this script started (by their pid files)
#
# Every mode is idempotent: `start` on a running cluster only checks it, `stop` on a stopped one
# does nothing. The configuration (/etc/slurm/slurm.conf) says which script wrote it; an existing
# slurm.conf written by someone else is never overwritten (the script stops with an error).
# Why these settings: proctrack/linuxproc and task/none need no cgroup setup (containers, CI),
# select/cons_tres with CR_Core_Memory makes --cpus-per-task and --mem real allocations,
# 127.0.0.1 as the daemons' address works without a resolvable host name, and RealMemory leaves a margin for the system so the node is not drained for having less memory
# than configured. Daemon logs: /var/log/slurm/; state: /var/spool/slurmctld, /var/spool/slurmd.
# Environment: SLURM_LOCAL_KILLWAIT (seconds between SIGTERM and SIGKILL at a time limit or
# cancel, default 10; real clusters usually have 30 or more).
set -euo pipefail

CONF=/etc/slurm/slurm.conf
MARK="# written by npuzzle scripts/slurm-local.sh"
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid
MUNGE_PID=/run/munge/munged.pid
LOGDIR=/var/log/slurm

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
die() { echo "slurm-local: $*" >&2; exit 1; }
say() { echo "slurm-local: $*" >&2; }

# alive PIDFILE: the process of the pid file runs.
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

need_root() { [ "$(id -u)" -eq 0 ] || die "run as root (it installs packages, writes $CONF and starts daemons)"; }

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
        && command -v munged >/dev/null; then
        return
    fi
    command -v apt-get >/dev/null || die "slurmctld/slurmd/munged not found and no apt-get to install slurm-wlm and munge"
    say "installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q slurm-wlm munge >/tmp/slurm-local-apt.log 2>&1; then
        apt-get update -q >>/tmp/slurm-local-apt.log 2>&1
        apt-get install -y -q slurm-wlm munge >>/tmp/slurm-local-apt.log 2>&1 \
            || { tail -20 /tmp/slurm-local-apt.log >&2; die "apt-get install slurm-wlm munge failed (log: /tmp/slurm-local-apt.log)"; }
    fi
}

start_munge() {
    if alive "$MUNGE_PID"; then return; fi
    install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
    install -d -o munge -g munge -m 0755 /run/munge
    if [ ! -s /etc/munge/munge.key ]; then
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
    fi
    chown munge:munge /etc/munge/munge.key
    chmod 0400 /etc/munge/munge.key
    runuser -u munge -- /usr/sbin/munged || die "munged did not start (log: /var/log/munge/munged.log)"
    for _ in $(seq 50); do alive "$MUNGE_PID" && return; sleep 0.1; done
    die "munged did not write $MUNGE_PID"
}

write_conf() {
    local host cpus mem_mib margin real killwait
    host=$(hostname -s)
    cpus=$(nproc)
    mem_mib=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
    # 10% for the system, at least 512 MiB.
    margin=$((mem_mib / 10)); [ "$margin" -ge 512 ] || margin=512
    real=$((mem_mib - margin))
    killwait="${SLURM_LOCAL_KILLWAIT:-10}"
    if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
        die "$CONF exists and was not written by this script; not touching it (move it away to use a local test cluster)"
    fi
    mkdir -p /etc/slurm "$LOGDIR" /var/spool/slurmctld /var/spool/slurmd
    cat >"$CONF.new" <<EOF
$MARK: a single-node test cluster.
ClusterName=npuzzle-local
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=$killwait
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
    mv "$CONF.new" "$CONF"
    # Debian's slurm-wlm ships no cgroup.conf; linuxproc and task/none do not need one.
    say "wrote $CONF: node $host, $cpus CPUs, RealMemory $real MiB (of $mem_mib), KillWait $killwait s"
}

node_state() { sinfo -h -N -n "$(hostname -s)" -o %t 2>/dev/null | head -1; }

start() {
    need_root
    install_packages
    if alive "$CTLD_PID" && alive "$SLURMD_PID" && alive "$MUNGE_PID" && [ "$(node_state)" = idle ]; then
        say "already running"; sinfo; return
    fi
    local t0=$SECONDS
    start_munge
    if ! alive "$CTLD_PID" || ! alive "$SLURMD_PID"; then
        write_conf
    fi
    # -c on the first start only would lose nothing here; state from an earlier start is kept.
    alive "$CTLD_PID" || /usr/sbin/slurmctld || die "slurmctld did not start (log: $LOGDIR/slurmctld.log)"
    alive "$SLURMD_PID" || /usr/sbin/slurmd || die "slurmd did not start (log: $LOGDIR/slurmd.log)"
    local state=""
    for _ in $(seq 300); do
        state=$(node_state)
        case "$state" in
        idle|mix|alloc) break ;;
        down*|drain*|drng*)
            scontrol update nodename="$(hostname -s)" state=resume 2>/dev/null || true ;;
        esac
        sleep 0.1
    done
    case "$state" in
    idle|mix|alloc) ;;
    *) tail -5 "$LOGDIR/slurmctld.log" "$LOGDIR/slurmd.log" >&2 || true
       die "node $(hostname -s) is '${state:-unknown}' after 30 s, not idle" ;;
    esac
    say "running ($((SECONDS - t0)) s)"
    sinfo
}

stop_one() {
    local name=$1 pidfile=$2 pid
    alive "$pidfile" || return 0
    pid=$(cat "$pidfile")
    kill "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
    say "$name ($pid) still running after 10 s; sending SIGKILL"
    kill -9 "$pid" 2>/dev/null || true
}

stop() {
    need_root
    stop_one slurmd "$SLURMD_PID"
    stop_one slurmctld "$CTLD_PID"
    stop_one munged "$MUNGE_PID"
    say "stopped"
}

status() {
    local rc=0 d
    for d in "munged:$MUNGE_PID" "slurmctld:$CTLD_PID" "slurmd:$SLURMD_PID"; do
        if alive "${d#*:}"; then echo "${d%%:*}: running (pid $(cat "${d#*:}"))"
        else echo "${d%%:*}: not running"; rc=3; fi
    done
    if [ "$rc" -eq 0 ]; then sinfo; squeue; fi
    return "$rc"
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
*) usage ;;
esac
