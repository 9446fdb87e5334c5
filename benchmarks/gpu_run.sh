#!/usr/bin/env bash
# GPU verification of scalarlint in one call of at most 8 minutes (issue 32): the reference rules,
# the fixed corpus and the pytest plugin on CuPy and PyTorch CUDA, tables written under $OUT.
#
# The device call (a GPU machine: no network, CuPy/NumPy/PyTorch/JAX installed). It sends the
# checkout the session started in, so run it from there, with this branch merged:
#   1. here, once:  bash benchmarks/gpu_wheels.sh          # .gpu-wheels/ (2.7 MB, ignored): libcst,
#                                                           # astroid, pathspec, array-api-compat
#   2. run(command="bash benchmarks/gpu_run.sh", carry=[".gpu-wheels"], timeout_s=540)
#      ($OUT is set there; the script's own budget is 470 s, so the call ends well inside 540 s
#      and leaves about 5 of the 15 device minutes for one rerun of some stages)
#   3. commit what came back: cp <files_at>/gpu_verify_{cupy,torch}.md <files_at>/fix_validation_{cupy,torch}.md
#      benchmarks/results/  (summary.md, pytest_plugin.txt and run.log say what else happened)
#   A rerun of some stages, e.g.: run(command="bash benchmarks/gpu_run.sh --stages verify-torch,plugin
#      --budget 200", carry=[".gpu-wheels"], timeout_s=260)
# Without a GPU (the strict CPU array and strict CPU PyTorch stand in for CuPy and PyTorch CUDA):
#   OUT=/tmp/gpuout bash benchmarks/gpu_run.sh --cpu --quick
#
# Options:
#   --cpu            strict / torch-strict instead of cupy / torch (no GPU needed)
#   --quick          small sizes (a smoke run)
#   --stages LIST    comma-separated stage names (default: all of them)
#   --budget SECONDS the whole run's time (default 470); each stage's cap is cut to what is left
#   --out DIR        where the tables go (default: $OUT)
# Stages (GPU names; with --cpu cupy -> strict, torch -> torch-strict):
#   setup         install scalarlint offline (carried wheels, then `pip install -e .`) unless importable
#   verify-cupy   benchmarks/gpu_verify.py --backend cupy  -> gpu_verify_cupy.md   (cap 150 s)
#   verify-torch  benchmarks/gpu_verify.py --backend torch -> gpu_verify_torch.md  (cap 120 s)
#   fixval-cupy   benchmarks/fix_validation_device.py --device cupy  -> fix_validation_cupy.md  (40 s)
#   fixval-torch  benchmarks/fix_validation_device.py --device torch -> fix_validation_torch.md (40 s)
#   plugin        pytest tests/rules/test_rules_backends.py --scalarlint-backends=all -> pytest_plugin.txt (60 s)
# A stage that fails or runs out of time does not stop the others; gpu_verify.py rewrites its table
# after every rule, so a stage stopped by its cap leaves a partial table. $OUT/summary.md gets one
# row per stage as it ends, $OUT/run.log every stage's output. At most 7 files: the device returns 8.
# Exit status: 0 every stage passed; 1 some stage's table reports failures; 2 some stage errored,
# timed out or was skipped.
set -uo pipefail
cd "$(dirname "$0")/.."

cpu=0 quick=0 stages="" budget=470 out="${OUT:-}"
while (($#)); do
    case "$1" in
        --cpu) cpu=1 ;;
        --quick) quick=1 ;;
        --stages) stages="$2"; shift ;;
        --budget) budget="$2"; shift ;;
        --out) out="$2"; shift ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "gpu_run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ -n "$out" ] || { echo "gpu_run.sh: set OUT or pass --out DIR" >&2; exit 2; }
mkdir -p "$out"
out="$(cd "$out" && pwd)"
log="$out/run.log" summary="$out/summary.md"
: > "$log"

py="${PYTHON:-$( [ -x .venv/bin/python ] && echo "$PWD/.venv/bin/python" || echo python3 )}"
if ((cpu)); then first=strict second=torch-strict; else first=cupy second=torch; fi
quick_flag=()
((quick)) && quick_flag=(--quick)
export PYTHONUNBUFFERED=1 XLA_PYTHON_CLIENT_PREALLOCATE=false  # JAX must not take the GPU's memory
deadline=$(( $(date +%s) + budget ))
reserve=5
exit_status=0

selected() { [ -z "$stages" ] || [[ ",$stages," == *",$1,"* ]]; }

environment() {
    "$py" - <<'EOF' 2>&1
import importlib.metadata as m, platform
names = ["numpy", "cupy-cuda13x", "cupy-cuda12x", "cupy", "torch", "jax", "array-api-compat", "libcst", "astroid", "pytest", "scalarlint"]
found = []
for name in names:
    try:
        found.append(f"{name} {m.version(name)}")
    except m.PackageNotFoundError:
        pass
print(f"- Python {platform.python_version()} (`{platform.machine()}`); " + ", ".join(found))
EOF
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "- GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
    else
        echo "- GPU: none (nvidia-smi not found)"
    fi
}

header() {
    echo "# scalarlint GPU verification run"
    echo
    echo "- command: \`bash benchmarks/gpu_run.sh$( ((cpu)) && echo " --cpu")$( ((quick)) && echo " --quick")${stages:+ --stages $stages} --budget $budget\`"
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "- backends: $first, $second"
    environment
    echo
    echo "| stage | status | seconds | table | result |"
    echo "|---|---|---|---|---|"
}

record() {  # stage status seconds file result
    echo "| $1 | $2 | $3 | ${4:-–} | ${5:-–} |" >> "$summary"
    echo "=== $1: $2 (${3}s)" >> "$log"
}

# run_stage NAME CAP FILE COMMAND...: COMMAND under `timeout`, its output in run.log, a row in summary.md
run_stage() {
    local name="$1" cap="$2" file="$3"
    shift 3
    selected "$name" || return 0
    local left=$(( deadline - $(date +%s) - reserve ))
    if (( left < 10 )); then
        record "$name" "SKIPPED: no time left of the ${budget}s budget" 0 "$file" ""
        exit_status=2
        return 0
    fi
    (( cap > left )) && cap=$left
    echo "=== $name (cap ${cap}s): $*" >> "$log"
    local start rc=0
    start=$(date +%s)
    timeout --kill-after=10 "$cap" "$@" >> "$log" 2>&1 || rc=$?
    local seconds=$(( $(date +%s) - start )) status result=""
    if [ -s "$out/$file" ]; then
        result="$(grep -m1 -E '^Summary|^[=]* *[0-9]+ (passed|failed)|(passed|failed|error).* in [0-9.]+s' "$out/$file" | sed 's/|/\\|/g; s/^=* *//; s/ *=*$//')"
    fi
    case "$rc" in
        0) status="pass" ;;
        1) if [ -s "$out/$file" ]; then status="FAILURES (see the table)"; else status="ERROR (exit 1, no table)"; fi ;;
        124|137) status="TIMEOUT after ${cap}s$( [ -s "$out/$file" ] && echo ": partial table")" ;;
        *) status="ERROR (exit $rc; see run.log)" ;;
    esac
    if (( rc != 0 )); then
        (( rc == 1 && exit_status < 1 )) && exit_status=1
        (( rc != 1 )) && exit_status=2
    fi
    [ -s "$out/$file" ] || file=""
    record "$name" "$status" "$seconds" "$file" "$result"
}

# -- setup: scalarlint and the dependencies the GPU image lacks, offline ---------------------------
setup_row=()
setup() {
    selected setup || return 0
    local start rc=0 how
    start=$(date +%s)
    echo "=== setup" >> "$log"
    if "$py" -c "import scalarlint.rules, scalarlint.cli, scalarlint.pytest_plugin, libcst, astroid, pathspec, array_api_compat" >> "$log" 2>&1; then
        how="already importable"
    else
        local site=/tmp/scalarlint-gpu-site
        if compgen -G ".gpu-wheels/*.whl" > /dev/null; then
            timeout 60 "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
                --target "$site" .gpu-wheels/*.whl >> "$log" 2>&1 || rc=$?
            export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
        fi
        timeout 60 "$py" -m pip install -q --no-index --no-deps --no-build-isolation -e . >> "$log" 2>&1 || rc=$?
        "$py" -c "import scalarlint.rules, scalarlint.cli, scalarlint.pytest_plugin, libcst, astroid, pathspec, array_api_compat" >> "$log" 2>&1 || rc=$?
        how="carried wheels in $site (PYTHONPATH), then pip install -e . (no index, no build isolation)"
    fi
    local status="pass"
    if (( rc != 0 )); then status="ERROR (exit $rc; see run.log)"; exit_status=2; fi
    setup_row=(setup "$status" $(( $(date +%s) - start )) "" "$how")
}

: > "$summary"
setup
header > "$summary"  # after setup: the versions it installed
((${#setup_row[@]})) && record "${setup_row[@]}"
run_stage "verify-$first" 150 "gpu_verify_$first.md" \
    "$py" benchmarks/gpu_verify.py --backend "$first" "${quick_flag[@]}" --peak-bandwidth 4800 --out "$out/gpu_verify_$first.md"
run_stage "verify-$second" 120 "gpu_verify_$second.md" \
    "$py" benchmarks/gpu_verify.py --backend "$second" "${quick_flag[@]}" --peak-bandwidth 4800 --out "$out/gpu_verify_$second.md"
fixval_trials=5
((quick)) && fixval_trials=2
run_stage "fixval-$first" 40 "fix_validation_$first.md" \
    "$py" benchmarks/fix_validation_device.py --device "$first" --trials "$fixval_trials" --out "$out/fix_validation_$first.md"
run_stage "fixval-$second" 40 "fix_validation_$second.md" \
    "$py" benchmarks/fix_validation_device.py --device "$second" --trials "$fixval_trials" --out "$out/fix_validation_$second.md"
# the rule tests that take the plugin's backends (the other rule modules name theirs: CI runs them)
run_stage plugin 60 pytest_plugin.txt \
    bash -c '"$@" > "'"$out"'/pytest_plugin.txt" 2>&1' _ \
    "$py" -m pytest tests/rules/test_rules_backends.py --scalarlint-backends=all -p no:cacheprovider -q -rs

{
    echo
    case "$exit_status" in
        0) echo "All stages passed." ;;
        1) echo "Every stage ran; some tables report failures (rows above marked FAILURES)." ;;
        *) echo "Some stages errored, timed out or were skipped: see run.log." ;;
    esac
} >> "$summary"
cat "$summary"
exit "$exit_status"
