#!/usr/bin/env bash
# A one-node Slurm cluster on localhost, for tests and CI (run as root).
#   local-cluster.sh start STATE_DIR   start munged, slurmctld and slurmd;
#                                      prints "export SLURM_CONF=..." on success
#   local-cluster.sh stop STATE_DIR    stop them by the pids they recorded
# Needs Debian's slurm-wlm and munge. Everything but munge's key lives in
# STATE_DIR.
set -euo pipefail
cmd=${1:-}
state=${2:-}
if [[ -z $cmd || -z $state ]]; then
	echo "usage: $0 start|stop STATE_DIR" >&2
	exit 2
fi
conf=$state/slurm.conf

stop_pid() { # stop_pid FILE: end the process whose pid FILE holds
	local f=$1 pid
	[[ -s $f ]] || return 0
	pid=$(cat "$f")
	if kill "$pid" 2>/dev/null; then
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$f"
}

case $cmd in
start)
	mkdir -p "$state/spool" "$state/ctld" "$state/munge"
	state=$(cd "$state" && pwd)
	conf=$state/slurm.conf
	# munge: key, directories owned by munge, daemon with its own socket and pid.
	install -d -o munge -g munge -m 700 /etc/munge /var/log/munge /var/lib/munge
	install -d -o munge -g munge -m 755 /run/munge
	if [[ ! -s /etc/munge/munge.key ]]; then
		head -c 1024 /dev/urandom > /etc/munge/munge.key
	fi
	chown munge:munge /etc/munge/munge.key
	chmod 400 /etc/munge/munge.key
	if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
		runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
		cp /run/munge/munged.pid "$state/munged.pid"
		munge -n | unmunge >/dev/null
	fi
	host=$(hostname -s)
	cat > "$conf" <<CONF
ClusterName=nugo
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
MessageTimeout=60
NodeName=$host CPUs=$(nproc) RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF=$conf
	/usr/sbin/slurmctld -f "$conf"
	/usr/sbin/slurmd -f "$conf"
	for _ in $(seq 100); do
		if sinfo -h -o %T 2>/dev/null | grep -qx idle; then
			echo "export SLURM_CONF=$conf"
			exit 0
		fi
		sleep 0.2
	done
	echo "local-cluster: the node did not become idle; see $state/slurmctld.log and $state/slurmd.log" >&2
	exit 1
	;;
stop)
	stop_pid "$state/slurmd.pid"
	stop_pid "$state/slurmctld.pid"
	stop_pid "$state/munged.pid"
	;;
*)
	echo "usage: $0 start|stop STATE_DIR" >&2
	exit 2
	;;
esac
