#compdef restoration
# zsh completion for Stasis's restoration (its commands as in `restoration --help`).
local -a commands
commands=(
  'dump:print a snapshot: metadata, app-wide values, every saved view controller and view'
  'diff:what changed from the first snapshot to the second'
  'why:why the object at a path was saved or not'
  'help:print the help'
)
if (( CURRENT == 2 )); then _describe 'command' commands; return; fi
case ${words[2]} in
  dump|diff) _files ;;
  why) (( CURRENT >= 4 )) && _files ;;
esac
