# Sourced by the scripts in this folder: one line per stage ("demo [2/4] configure: …"), and how long
# each took. A script that calls another passes its name and stage numbering on through
# STEPSCOPE_SCRIPT, STEPSCOPE_STAGES and STEPSCOPE_STAGE_NO (the stages done before it).
_script="${STEPSCOPE_SCRIPT:-$(basename "$0")}"
_stage_total="${STEPSCOPE_STAGES:-${_own_stages:-?}}"
_stage_no="${STEPSCOPE_STAGE_NO:-0}"
_script_start=$(date +%s)
_stage_start=$_script_start

elapsed_text() {  # seconds -> "4 min 05 s" or "42 s"
  local s=$1
  if [ "$s" -ge 60 ]; then printf '%d min %02d s' $((s / 60)) $((s % 60)); else printf '%d s' "$s"; fi
}

stage_begin() {  # NAME WHAT
  _stage_no=$((_stage_no + 1))
  _stage_start=$(date +%s)
  echo "${_script} [${_stage_no}/${_stage_total}] $1: $2"
}

stage_end() {  # [WHAT]
  echo "${_script} [${_stage_no}/${_stage_total}] done in $(elapsed_text $(( $(date +%s) - _stage_start )))${1:+: $1}"
}

# Runs another script of this folder as the next stages of this one.
run_stages() {  # COUNT SCRIPT [ARGS...]
  local count=$1; shift
  STEPSCOPE_SCRIPT="$_script" STEPSCOPE_STAGES="$_stage_total" STEPSCOPE_STAGE_NO="$_stage_no" "$@"
  _stage_no=$((_stage_no + count))
}

script_done() {  # [WHAT]
  echo "${_script}: finished in $(elapsed_text $(( $(date +%s) - _script_start )))${1:+ — $1}"
}
