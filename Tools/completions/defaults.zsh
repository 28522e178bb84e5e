#compdef defaults
# zsh completion for Stasis's defaults (its commands and value types as in `defaults help`).
local -a commands types
commands=(
  'read:show defaults' 'read-type:show the type of a value' 'write:write a domain or a key'
  'rename:rename a key' 'delete:delete a domain or a key' 'import:write a plist to a domain'
  'export:save a domain as a plist' 'domains:list all domains' 'find:list entries containing a word'
  'help:print the help'
)
types=(-string -data -int -integer -float -bool -boolean -date -array -array-add -dict -dict-add)
local start=2
while [[ ${words[start]} == (-currentHost|-host) ]]; do
  [[ ${words[start]} == -host ]] && (( start++ ))
  (( start++ ))
done
if (( CURRENT <= start )); then
  _describe 'command' commands
  (( CURRENT == 2 )) && compadd -- -currentHost -host
  return
fi
local command=${words[start]} position=$(( CURRENT - start ))
if (( position == 1 )); then
  [[ $command == (domains|help) ]] && return
  compadd -- -app -globalDomain -g NSGlobalDomain ${(s:, :)"$(command defaults domains 2>/dev/null)"}
  return
fi
case ${words[CURRENT-1]} in
  -bool|-boolean) compadd -- true false yes no; return ;;
esac
case $command in
  write) (( position >= 3 )) && [[ $PREFIX == -* ]] && compadd -- $types ;;
  import|export) (( position == 2 )) && _files ;;
esac
