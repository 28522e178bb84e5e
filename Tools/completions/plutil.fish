# fish completion for Stasis's plutil (its commands and options as in `plutil -help`).
complete -c plutil -o help -d 'print the help and exit'
complete -c plutil -o lint -d 'check each file for syntax errors'
complete -c plutil -o convert -x -a 'xml1 binary1 json openstep swift objc' -d 'rewrite each file in a format'
complete -c plutil -o insert -x -d 'insert a value at a key path'
complete -c plutil -o replace -x -d 'set the value at a key path'
complete -c plutil -o remove -x -d 'remove the value at a key path'
complete -c plutil -o extract -x -d 'write the value at a key path as a document'
complete -c plutil -o type -x -d 'print the type of the value at a key path'
complete -c plutil -o create -x -a 'xml1 binary1 json openstep swift objc' -d 'write an empty dictionary'
complete -c plutil -o p -d 'print for people to read'
complete -c plutil -o archive -d "print a keyed archive's object graph"
complete -c plutil -o expect -x -a 'bool integer float string date data dictionary array' -d 'fail unless the value has this type'
complete -c plutil -o header -d 'with objc: also write a .h file'
complete -c plutil -o append -d 'add the value to the end of the array'
complete -c plutil -o s -d 'print nothing on success'
complete -c plutil -o o -r -d 'write the result to a path'
complete -c plutil -o e -x -d 'write the result next to the file with an extension'
complete -c plutil -o r -d 'indent JSON and sort its keys'
complete -c plutil -o n -d 'no newline after raw and type output'
for type in bool integer float string date data xml json dictionary array
  complete -c plutil -o $type -d "a value of type $type"
end
