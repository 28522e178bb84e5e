# bash completion for Stasis's restoration (its commands as in `restoration --help`).
_restoration() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=($(compgen -W "dump diff why help --help -h" -- "$cur")); return
  fi
  case ${COMP_WORDS[1]} in
    dump|diff) COMPREPLY=($(compgen -f -- "$cur")) ;;
    why) (( COMP_CWORD >= 3 )) && COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -F _restoration restoration
