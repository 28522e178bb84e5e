# bash completion for Stasis's plutil (its commands and options as in `plutil -help`).
_plutil() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local commands="-help -lint -convert -insert -replace -remove -extract -type -create -p -archive"
  local options="-s -o -e -r -n --"
  local types="-bool -integer -float -string -date -data -xml -json -dictionary -array"
  case $prev in
    -convert) COMPREPLY=($(compgen -W "xml1 binary1 json openstep swift objc" -- "$cur")); return ;;
    -create) COMPREPLY=($(compgen -W "xml1 binary1 json openstep swift objc" -- "$cur")); return ;;
    -expect) COMPREPLY=($(compgen -W "bool integer float string date data dictionary array" -- "$cur")); return ;;
    -o) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -e) return ;;
  esac
  # -extract keypath fmt: the format follows the key path.
  if [[ $COMP_CWORD -ge 3 && ${COMP_WORDS[COMP_CWORD-2]} == -extract ]]; then
    COMPREPLY=($(compgen -W "xml1 binary1 json openstep raw" -- "$cur")); return
  fi
  # -insert/-replace keypath -type value: the type follows the key path.
  if [[ $COMP_CWORD -ge 3 && ${COMP_WORDS[COMP_CWORD-2]} == @(-insert|-replace) ]]; then
    COMPREPLY=($(compgen -W "$types" -- "$cur")); return
  fi
  case $prev in
    -insert|-replace|-remove|-extract|-type) return ;;  # a key path
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$commands $options -header -expect -append" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -F _plutil plutil
