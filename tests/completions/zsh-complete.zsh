#!/usr/bin/env zsh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# zsh-complete.zsh - print what zsh completes for a command line.
#
# Usage: zsh-complete.zsh COMPLETION_DIR 'reclaimctl set th'
#        zsh-complete.zsh --serve COMPLETION_DIR
#
# Starts an interactive zsh on a pseudo-terminal (zsh/zpty) with only
# COMPLETION_DIR added to fpath and a bare compinit, types the line and a TAB,
# and prints the matches the completion system generated, one a line, sorted.
# compadd is wrapped to record each match (the technique of zsh-capture-
# completion); nothing is ever executed.  Exits 2 when zsh could not be driven.
# With ZSH_COMPLETE_DUMP=FILE, compinit keeps its dump there: the first run
# writes it, later runs start in a fraction of the time.
# With --serve, requests are read from standard input as bash-complete.sh
# --serve reads them (the working directory, PATH, RECLAIMCTL_PRESET_DIR,
# "set" or empty, the line); each is typed into a new interactive zsh, and
# answered with its matches, unsorted, and a line of "\037end".

emulate -L zsh
setopt err_return no_unset

zmodload zsh/zpty || { print -u2 'zsh-complete: no zsh/zpty module'; exit 2 }

integer serve=0
if [[ ${1:-} == --serve ]]; then
  serve=1
  shift
fi
compdir=${1:?usage: zsh-complete.zsh [--serve] COMPLETION_DIR [LINE]}
(( serve )) || cmdline=${2:?usage: zsh-complete.zsh COMPLETION_DIR LINE}
compdir=${compdir:A}
init=$(mktemp)
if [[ -n ${ZSH_COMPLETE_DUMP:-} ]]; then
  dump_opt="-d ${(q)ZSH_COMPLETE_DUMP}"
else
  dump_opt=-D
fi
trap 'rm -f $init; zpty -d capture 2>/dev/null' EXIT

cat >$init <<EOF
PS1= PROMPT= RPROMPT=
fpath=(${(q)compdir} \$fpath)
autoload -Uz compinit && compinit -u $dump_opt
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
zstyle ':completion:*' menu no
bindkey '^I' complete-word
bindkey '^M' undefined
bindkey '^J' undefined
_capture_mark() { print -r -- '<capture>' }
compprefuncs=(_capture_mark)
comppostfuncs=(_capture_mark exit)
compadd() {
  # Calls that only collect or filter matches for the caller pass through.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "\$@"
    return
  fi
  local -a __hits
  builtin compadd -A __hits "\$@"
  local h
  for h in \$__hits; do print -r -- "<match>\$h"; done
  builtin compadd "\$@"
}
print -r -- '<ready>'
EOF

# complete_line LINE: the matches zsh offers for LINE, one a line
complete_line() {
  local cmdline=$1
  zpty capture zsh -f -i
  zpty -w capture "source ${(q)init}"
  # Wait until the shell has read the set-up.
  local line
  integer tries=0
  while zpty -r capture line; do
    [[ $line == *'<ready>'* ]] && break
    (( ++tries > 200 )) && { print -u2 'zsh-complete: zsh did not start'; return 2 }
  done
  zpty -n -w capture "$cmdline"$'\t'

  local -a matches
  integer marks=0
  while zpty -r capture line; do
    line=${${line//$'\r'/}%$'\n'}
    if [[ $line == *'<capture>'* ]]; then
      (( ++marks == 2 )) && break
      continue
    fi
    (( marks == 1 )) && [[ $line == *'<match>'* ]] && matches+=("${line#*<match>}")
  done
  (( marks >= 1 )) || { print -u2 "zsh-complete: no completion ran for '$cmdline'"; return 2 }
  (( $#matches )) && print -rl -- $matches
  zpty -d capture
  return 0
}

if (( ! serve )); then
  complete_line $cmdline | sort -u
  exit ${pipestatus[1]}
fi
# ($path is zsh's array of $PATH: not a name for a variable of one's own)
local r_dir r_path r_presets r_presets_set r_line
while IFS= read -r r_dir && IFS= read -r r_path && IFS= read -r r_presets &&
    IFS= read -r r_presets_set && IFS= read -r r_line; do
  (
    cd -q -- $r_dir || exit
    PATH=$r_path
    if [[ -n $r_presets_set ]]; then export RECLAIMCTL_PRESET_DIR=$r_presets; else unset RECLAIMCTL_PRESET_DIR; fi
    complete_line $r_line
  )
  print -r -- $'\037end'
done
