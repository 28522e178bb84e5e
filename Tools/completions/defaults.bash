# bash completion for Stasis's defaults (its commands and value types as in `defaults help`).
_defaults() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="read read-type write rename delete import export domains find help"
  local types="-string -data -int -integer -float -bool -boolean -date -array -array-add -dict -dict-add"
  # The command: the first word that is not -currentHost/-host HOST.
  local i=1 command=""
  while (( i < COMP_CWORD )); do
    case ${COMP_WORDS[i]} in
      -currentHost) ;;
      -host) ((i++)) ;;
      *) command=${COMP_WORDS[i]}; break ;;
    esac
    ((i++))
  done
  if [[ -z $command ]]; then
    COMPREPLY=($(compgen -W "$commands -currentHost -host" -- "$cur")); return
  fi
  local position=$((COMP_CWORD - i))
  if (( position == 1 )); then
    [[ $command == @(domains|help) ]] && return
    local domains
    domains=$(command defaults domains 2>/dev/null | tr -d ',')
    COMPREPLY=($(compgen -W "-app -globalDomain -g NSGlobalDomain $domains" -- "$cur")); return
  fi
  [[ $prev == -app ]] && return
  case $command in
    write) (( position >= 3 )) && [[ $cur == -* ]] && COMPREPLY=($(compgen -W "$types" -- "$cur")) ;;
    import|export) (( position == 2 )) && COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
  [[ $prev == @(-bool|-boolean) ]] && COMPREPLY=($(compgen -W "true false yes no" -- "$cur"))
  return 0
}
complete -F _defaults defaults
