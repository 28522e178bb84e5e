#compdef plutil
# zsh completion for Stasis's plutil (its commands and options as in `plutil -help`).
local -a formats extract_formats types
formats=(xml1 binary1 json openstep swift objc)
extract_formats=(xml1 binary1 json openstep raw)
types=(-bool -integer -float -string -date -data -xml -json -dictionary -array)
case ${words[CURRENT-1]} in
  -convert|-create) _describe 'format' formats; return ;;
  -expect) _values 'type' bool integer float string date data dictionary array; return ;;
  -o) _files; return ;;
  -e|-insert|-replace|-remove|-extract|-type) return ;;
esac
if (( CURRENT > 3 )) && [[ ${words[CURRENT-2]} == -extract ]]; then _describe 'format' extract_formats; return; fi
if (( CURRENT > 3 )) && [[ ${words[CURRENT-2]} == (-insert|-replace) ]]; then _describe 'type' types; return; fi
_arguments -s \
  '-help[print the help and exit]' \
  '-lint[check each file for syntax errors]' \
  '-convert[rewrite each file in a format]' \
  '-insert[insert a value at a key path]' \
  '-replace[set the value at a key path]' \
  '-remove[remove the value at a key path]' \
  '-extract[write the value at a key path as a document]' \
  '-type[print the type of the value at a key path]' \
  '-create[write an empty dictionary]' \
  '-p[print for people to read]' \
  '-archive[print a keyed archive'"'"'s object graph]' \
  '-s[print nothing on success]' \
  '-o[write the result to a path]' \
  '-e[write the result next to the file with an extension]' \
  '-r[indent JSON and sort its keys]' \
  '-n[no newline after raw and type output]' \
  '-expect[fail unless the value has this type]' \
  '-header[with objc: also write a .h file]' \
  '-append[add the value to the end of the array]' \
  '*:file:_files'
