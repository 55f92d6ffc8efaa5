#!/usr/bin/env bash
# tests/slurm/test_slurm.sh — scripts/slurm on a real single-node Slurm (Debian's slurm-wlm):
# starts munged, slurmctld and slurmd of its own (a slurm.conf for this host in a temporary
# directory, free ports, no cgroups, no accounting), submits tests/slurm/manifest.json (24
# tables) with scripts/slurm/submit as a 4-task array and its dependent merge, and checks that
# the merged index is byte-identical to a local `mxcert sweep --jobs 2` of the manifest, that
# every certificate passes `mxcert check` and has the local sweep's agree set, that sbatch
# options after -- reach the jobs, that `--tasks 2` resumes one lost shard, that an unknown
# table (a limit) still lets the merge run (which exits 3), that failed tasks leave the merge
# pending (DependencyNeverSatisfied), and that bad arguments are exit 2 with one line and
# submit nothing. The daemons it started, and their jobs, are always stopped (trap EXIT).
# Needs root; MXCERT_SKIP_SLURM=1 skips it (exit 77).
# Usage: test_slurm.sh path/to/mxcert
if [ "${MXCERT_SKIP_SLURM:-}" = 1 ]; then
  echo "skipped: MXCERT_SKIP_SLURM=1"
  exit 77
fi
. "$(dirname "$0")/../cli/lib.sh"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
SUBMIT="$ROOT/scripts/slurm/submit"
M="$ROOT/tests/slurm/manifest.json"
ENTRIES=24

if [ "$(id -u)" != 0 ]; then
  echo "FAIL: slurm_sweep needs root (it starts munged, slurmctld and slurmd); run it as root, or set MXCERT_SKIP_SLURM=1 to skip it" >&2
  exit 1
fi
for b in munged mungekey munge slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
  command -v "$b" >/dev/null || PATH="$PATH:/usr/sbin:/sbin"
  command -v "$b" >/dev/null || { echo "FAIL: no '$b' on PATH: install Debian's slurm-wlm and munge (scripts/setup does)" >&2; exit 1; }
done

# The daemons' pids (they run in the foreground, children of this script) and the jobs submitted.
MUNGED="" SLURMCTLD="" SLURMD=""
JOBS=()

# stop PID — SIGTERM, up to 15 s to exit, then SIGKILL; reaps it.
stop() {
  [ -n "$1" ] || return 0
  kill "$1" 2>/dev/null
  for _ in $(seq 150); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$1" 2>/dev/null
  wait "$1" 2>/dev/null
}

# cleanup — cancels the jobs still queued or running, stops the daemons this script started,
# kills any process still left of them (a slurmstepd or a job's mxcert: they have this
# cluster's SLURM_CONF in their environment, or the temporary directory in their command
# line), removes the temporary directory.
cleanup() {
  if [ -n "$SLURMCTLD" ] && ((${#JOBS[@]})); then
    scancel "${JOBS[@]}" 2>/dev/null
    for _ in $(seq 100); do [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break; sleep 0.2; done
  fi
  stop "$SLURMD"
  stop "$SLURMCTLD"
  stop "$MUNGED"
  local d p cmd env
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    [ "$p" = $$ ] && continue
    cmd=$({ tr '\0' ' ' <"$d/cmdline"; } 2>/dev/null)
    env=$({ tr '\0' '\n' <"$d/environ"; } 2>/dev/null)
    case "$cmd|$env" in *"$TMP"*) kill -9 "$p" 2>/dev/null ;; esac
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# logs — prints the daemons' logs (when the cluster or a job misbehaves).
logs() {
  local f
  for f in "$TMP"/log/* "$TMP"/*/slurm-*.out; do
    [ -f "$f" ] || continue
    echo "---- $f (last 40 lines)" >&2
    tail -n 40 "$f" >&2
  done
}

# abort MESSAGE — a failure after which nothing else can be checked: logs, exit 1.
abort() {
  fail "$*"
  logs
  finish
}

# free_ports N — N TCP ports of 127.0.0.1 that are free now.
free_ports() {
  python3 -c '
import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
for x in s: x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"
}

# munged's socket must be reachable by everyone (x on every directory above it); its key not.
chmod 755 "$TMP"
mkdir -p "$TMP/munge-run" "$TMP/munge-key" "$TMP/log" "$TMP/state" "$TMP/spool"
chmod 755 "$TMP/munge-run"
chmod 700 "$TMP/munge-key"
SOCK="$TMP/munge-run/munge.socket"
mungekey --create --keyfile="$TMP/munge-key/munge.key" || abort "mungekey could not create a key"
munged --foreground --force --socket="$SOCK" --key-file="$TMP/munge-key/munge.key" --pid-file="$TMP/munge-run/munged.pid" \
  --seed-file="$TMP/munge-key/munged.seed" --log-file="$TMP/log/munged.log" </dev/null >"$TMP/log/munged.out" 2>&1 &
MUNGED=$!
for _ in $(seq 100); do [ -S "$SOCK" ] && break; kill -0 "$MUNGED" 2>/dev/null || break; sleep 0.1; done
munge -n -S "$SOCK" | unmunge -S "$SOCK" >/dev/null 2>&1 || abort "munged does not answer on $SOCK"

H=$(hostname -s)
read -r CTLD_PORT D_PORT < <(free_ports 2)
# Only this cluster's settings: none of a surrounding job's (ctest run inside a Slurm job) or
# the user's sbatch/squeue defaults (SBATCH_PARTITION, SQUEUE_FORMAT, ...).
for v in $(compgen -e | grep -E '^(SLURM|SBATCH|SALLOC|SRUN|SQUEUE|SINFO|SCONTROL|SCANCEL)_'); do unset "$v"; done
export SLURM_CONF="$TMP/slurm.conf"
cat >"$SLURM_CONF" <<EOF
# A single-node cluster on this host for tests/slurm/test_slurm.sh.
ClusterName=mxcerttest
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$D_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
StateSaveLocation=$TMP/state
SlurmdSpoolDir=$TMP/spool
SlurmctldPidFile=$TMP/state/slurmctld.pid
SlurmdPidFile=$TMP/spool/slurmd.pid
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=mxcert Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D -f "$SLURM_CONF" </dev/null >"$TMP/log/slurmctld.out" 2>&1 &
SLURMCTLD=$!
slurmd -D -f "$SLURM_CONF" </dev/null >"$TMP/log/slurmd.out" 2>&1 &
SLURMD=$!
# Up to 60 s for the node to register and be idle.
state=""
end=$((SECONDS + 60))
while ((SECONDS < end)); do
  state=$(sinfo -h -n "$H" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  kill -0 "$SLURMCTLD" 2>/dev/null || abort "slurmctld exited"
  kill -0 "$SLURMD" 2>/dev/null || abort "slurmd exited"
  sleep 0.2
done
[ "$state" = idle ] || abort "the node $H is not idle after 60 s (sinfo: '${state}')"
ok

# queued IDS — prints the jobs of IDS (comma separated) still queued or running, one line
# each; fails when squeue does not answer.
queued() {
  squeue -h -j "$1" -o %i 2>/dev/null
}

# wait_jobs ID... — waits (up to 150 s) until none of the jobs is queued or running; fails
# early when a job waits on a dependency that can no longer be satisfied.
wait_jobs() {
  local ids q end=$((SECONDS + 150))
  ids=$(IFS=,; echo "$*")
  while ((SECONDS < end)); do
    q=$(queued "$ids") && [ -z "$q" ] && return 0
    squeue -h -j "$ids" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied &&
      abort "a job's dependency can never be satisfied (an array task failed): $(squeue -j "$ids" 2>&1)"
    sleep 0.2
  done
  abort "jobs $ids still queued or running after 150 s: $(squeue -j "$ids" 2>&1)"
}

# wait_never_satisfied ARRAY MERGE — waits (up to 150 s) until the array has ended and the
# merge is left pending with reason DependencyNeverSatisfied.
wait_never_satisfied() {
  local q end=$((SECONDS + 150))
  while ((SECONDS < end)); do
    q=$(queued "$1") && [ -z "$q" ] &&
      [ "$(squeue -h -j "$2" -o %T:%r 2>/dev/null)" = PENDING:DependencyNeverSatisfied ] && return 0
    sleep 0.2
  done
  abort "after 150 s the array $1 is not done or the merge $2 is not pending on a dependency never satisfied: $(squeue -j "$1,$2" 2>&1)"
}

# submit ARGS... — runs scripts/slurm/submit; sets RC, OUT, ERR as run does, and SWEEP_ID,
# MERGE_ID from its two stdout lines.
submit() {
  OUT="$TMP/out"
  ERR="$TMP/err"
  "$SUBMIT" "$@" >"$OUT" 2>"$ERR"
  RC=$?
  SWEEP_ID=$(sed -n 's/^sweep \([0-9][0-9]*\)$/\1/p' "$OUT")
  MERGE_ID=$(sed -n 's/^merge \([0-9][0-9]*\)$/\1/p' "$OUT")
  [ -n "$SWEEP_ID" ] && JOBS+=("$SWEEP_ID")
  [ -n "$MERGE_ID" ] && JOBS+=("$MERGE_ID")
}

# submitted ARGS... — runs scripts/slurm/submit, which must exit 0 and print exactly the two
# job ids (SWEEP_ID, MERGE_ID); otherwise nothing more can be checked (abort).
submitted() {
  submit "$@"
  [ "$RC" = 0 ] && [ "$(wc -l <"$OUT")" = 2 ] && [ -n "$SWEEP_ID" ] && [ -n "$MERGE_ID" ] ||
    abort "submit $*: exit $RC, stdout (expected 'sweep ID' and 'merge ID'): $(cat "$OUT") stderr: $(cat "$ERR")"
  ok
}

# job_states ID — "STATE EXITCODE" of the job (one line per array task), from scontrol.
job_states() {
  scontrol -o show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\) .*ExitCode=\([0-9:]*\) .*/\1 \2/p'
}

# expect_tasks ID N STATE — the array job ID has N tasks, each ended in STATE ("COMPLETED 0:0").
expect_tasks() {
  local got want
  got=$(job_states "$1")
  want=$(for _ in $(seq "$2"); do echo "$3"; done)
  [ "$got" = "$want" ] && ok || fail "array job $1: tasks $(echo "$got" | tr '\n' ';') expected $2 x $3"
}

# bad ARGS... — scripts/slurm/submit ARGS must be exit 2 with one "submit: error:" line on
# stderr and nothing on stdout.
bad() {
  submit "$@"
  expect_rc 2 "submit $*"
  if [ "$(wc -l <"$ERR")" -ne 1 ] || ! grep -q "^submit: error: " "$ERR" || [ -s "$OUT" ]; then
    fail "submit $*: stdout: $(cat "$OUT") stderr: $(cat "$ERR")"
  else
    ok
  fi
}
# Bad arguments: exit 2, one line, nothing submitted, OUTDIR not created.
bad "$M" "$TMP/bad"
bad "$M" "$TMP/bad" --shards 0
bad "$M" "$TMP/bad" --shards four
bad "$M" "$TMP/bad" --shards
bad "$M" "$TMP/bad" --shards 4 --tasks 4
bad "$M" "$TMP/bad" --shards 4 --tasks 3-1
bad "$M" "$TMP/bad" --shards 4 --tasks 'a,b'
bad "$M" "$TMP/bad" --shards 4 --jobs-per-task 0
bad "$M" "$TMP/bad" --shards 4 --mxcert "$TMP/no-such-mxcert"
bad "$M" "$TMP/bad" --shards 4 --bogus
bad "$M" "$TMP/bad" --shards 4 -- --array=0-1
bad "$M" "$TMP/bad" --shards 4 -- --dependency=afterok:1
bad "$TMP/no-such-manifest.json" "$TMP/bad" --shards 4
bad "$M" --shards 4
[ -e "$TMP/bad" ] && fail "a refused submit created OUTDIR" || ok
q=$(squeue -h -o %i) && [ -z "$q" ] && ok || fail "a refused submit queued jobs (or squeue failed): $(squeue 2>&1)"
"$SUBMIT" --help >"$TMP/out" 2>&1 && grep -q "^usage: scripts/slurm/submit MANIFEST OUTDIR --shards N" "$TMP/out" && ok ||
  fail "submit --help: $(head -n 2 "$TMP/out")"

# The local reference: the whole manifest, two tables at a time.
run sweep "$M" -o "$TMP/local" --jobs 2 --quiet
expect_rc 0 "local sweep --jobs 2"

# The cluster: 4 shards as a job array, the merge after it; --time and --job-name pass through.
submitted "$M" "$TMP/cluster" --shards 4 --mxcert "$MX" -- --time=10 --job-name=mxcert-test
scontrol -o show job "$MERGE_ID" | grep -q "Dependency=afterok:${SWEEP_ID}_\*" && ok ||
  fail "the merge job does not depend on the array: $(scontrol -o show job "$MERGE_ID")"
wait_jobs "$SWEEP_ID" "$MERGE_ID"
expect_tasks "$SWEEP_ID" 4 "COMPLETED 0:0"
[ "$(job_states "$MERGE_ID")" = "COMPLETED 0:0" ] && ok || fail "merge job $MERGE_ID: $(job_states "$MERGE_ID")"
names=$(scontrol -o show job "$SWEEP_ID" | grep -c "JobName=mxcert-test .*TimeLimit=00:10:00 ")
[ "$names" = 4 ] && ok || fail "sbatch options after -- did not reach the array tasks: $(scontrol -o show job "$SWEEP_ID" | head -n 1)"
scontrol -o show job "$MERGE_ID" | grep -q "JobName=mxcert-test .*TimeLimit=00:10:00 " && ok ||
  fail "sbatch options after -- did not reach the merge job"

C="$TMP/cluster"
for i in 0 1 2 3; do
  [ -f "$C/index-shard-$i-of-4.json" ] && ok || fail "no shard index $i of 4"
  grep -q "^sweep.sbatch: job ${SWEEP_ID}_$i on $H: shard $i/4 of $M into $C (--jobs 1)$" "$C/slurm-sweep-${SWEEP_ID}_$i.out" &&
    ok || fail "task $i's log: $(head -c 400 "$C/slurm-sweep-${SWEEP_ID}_$i.out" 2>&1)"
done
grep -q "^merge.sbatch: $C/index.json: $ENTRIES of $ENTRIES entries certified ($ENTRIES listed)$" "$C/slurm-merge-$MERGE_ID.out" && ok ||
  fail "merge log: $(cat "$C/slurm-merge-$MERGE_ID.out" 2>&1)"
[ -f "$C/index.json" ] || abort "the merge wrote no $C/index.json"
cmp -s "$TMP/local/index.json" "$C/index.json" && ok || fail "the merged index differs from the local --jobs 2 index"

# check_certificates — the certificate files of $C are exactly the index's, each passes
# mxcert check, and each has the local sweep's configuration and agree set.
check_certificates() {
  OUT="$C/index.json"
  py "certificates listed" "
import json, os, sys
j = json.load(open(sys.argv[1]))
assert j['entries_total'] == $ENTRIES and len(j['entries']) == $ENTRIES, len(j['entries'])
assert all(e['status'] == 'certified' for e in j['entries'])
files = sorted(f for f in os.listdir('$C') if f.endswith('.json') and not f.startswith('index'))
assert files == sorted(e['file'] for e in j['entries']), files
for e in j['entries']:
    s, l = json.load(open('$C/' + e['file'])), json.load(open('$TMP/local/' + e['file']))
    for key in ('config', 'lhs', 'rhs', 'relation', 'engine', 'agree', 'agree_pairs'):
        assert s[key] == l[key], (e['file'], key)
"
  local f n=0
  for f in "$C"/*.json; do
    case "$(basename "$f")" in index*) continue ;; esac
    run check "$f" --quiet
    expect_rc 0 "mxcert check $(basename "$f")"
    n=$((n + 1))
  done
  [ "$n" = "$ENTRIES" ] && ok || fail "$n certificates checked, expected $ENTRIES"
}
check_certificates

# Resuming one lost shard: remove one of shard 2's certificates, its index and the merged
# index, resubmit only array task 2; the merge joins it with shards 0, 1 and 3 again.
lost=$(sed -n '/"entry": 6,/,/"name"/s/^ *"file": "\(.*\)",$/\1/p' "$C/index.json")
[ -n "$lost" ] && [ -f "$C/$lost" ] || abort "entry 6 (of shard 2) has no file in the index"
rm -f "$C/$lost" "$C/index-shard-2-of-4.json" "$C/index.json"
submitted "$M" "$C" --shards 4 --tasks 2 --mxcert "$MX"
wait_jobs "$SWEEP_ID" "$MERGE_ID"
expect_tasks "$SWEEP_ID" 1 "COMPLETED 0:0"
[ "$(job_states "$MERGE_ID")" = "COMPLETED 0:0" ] && ok || fail "merge after the resumed task: $(job_states "$MERGE_ID")"
grep -q "^mxcert: sweep: 6 table(s): 6 certified (5 already done, skipped), 0 unknown, 0 failed; index $C/index-shard-2-of-4.json$" \
  "$C/slurm-sweep-${SWEEP_ID}_2.out" && ok || fail "resumed task's log: $(cat "$C/slurm-sweep-${SWEEP_ID}_2.out" 2>&1)"
[ -f "$C/index.json" ] || abort "the merge after the resumed task wrote no index"
cmp -s "$TMP/local/index.json" "$C/index.json" && ok || fail "the index after resuming differs from the local one"
check_certificates

# A table that stops at a limit (--max-terms on the unrolled query: deterministic; the
# induction's step queries are smaller) is unknown: its task still exits
# 0 (the shard index records it) and the merge runs, writes the index and exits 3.
cat >"$TMP/limit.json" <<'JSON'
{"manifest": "mxcert-sweep", "version": 1, "name": "limit",
 "list": [{"a": "e2m1", "k": 2, "lhs": "dequant", "rhs": "post"},
          {"a": "e2m1", "k": 4, "lhs": "dequant", "rhs": "post", "max-terms": 1000, "proof": "unrolled"}]}
JSON
L="$TMP/limit"
submitted "$TMP/limit.json" "$L" --shards 2 --mxcert "$MX"
wait_jobs "$SWEEP_ID" "$MERGE_ID"
expect_tasks "$SWEEP_ID" 2 "COMPLETED 0:0"
[ "$(job_states "$MERGE_ID")" = "FAILED 3:0" ] && ok || fail "limit.json merge: $(job_states "$MERGE_ID"), expected FAILED 3:0"
grep -q "^sweep.sbatch: shard 1/2: some tables are unknown or failed" "$L/slurm-sweep-${SWEEP_ID}_1.out" && ok ||
  fail "limit.json task 1's log: $(cat "$L/slurm-sweep-${SWEEP_ID}_1.out" 2>&1)"
grep -q "^merge.sbatch: $L/index.json: 1 of 2 entries certified (2 listed)$" "$L/slurm-merge-$MERGE_ID.out" && ok ||
  fail "limit.json merge log: $(cat "$L/slurm-merge-$MERGE_ID.out" 2>&1)"
OUT="$L/index.json"
py "limit.json index" "
import json, sys
j = json.load(open(sys.argv[1]))
assert [e['status'] for e in j['entries']] == ['certified', 'unknown'], j['entries']
"

# A task that fails (a manifest mxcert sweep refuses: exit 2) keeps the merge pending forever.
sed 's/"e2m1", "k": 4/"e9m9", "k": 4/' "$TMP/limit.json" >"$TMP/bad.json"
submitted "$TMP/bad.json" "$TMP/badrun" --shards 2 --mxcert "$MX"
wait_never_satisfied "$SWEEP_ID" "$MERGE_ID"
expect_tasks "$SWEEP_ID" 2 "FAILED 2:0"
grep -q "^mxcert: error: manifest entry 1 .*unknown element format 'e9m9'" "$TMP/badrun/slurm-sweep-${SWEEP_ID}_0.out" && ok ||
  fail "bad.json task 0's log: $(cat "$TMP/badrun/slurm-sweep-${SWEEP_ID}_0.out" 2>&1)"
[ -e "$TMP/badrun/index.json" ] && fail "a merge ran after failed tasks" || ok
scancel "$MERGE_ID"

finish
