/// The text of `plutil -help`.
///
/// It lists the same commands, options and value types as Apple's help, in the same order and
/// layout (option names in a 30-column margin), in Stasis's own words, and adds `openstep`.
enum HelpText {
  static func text(programName: String) -> String {
    programName + """
      : [command_option] [other_options] file...
      The file '-' means stdin
      Command options are (-lint is the default):
       -help                         print this help and exit
       -lint                         check each file for syntax errors and print "file: OK"
       -convert fmt                  rewrite each file in the format fmt
                                     fmt is one of: xml1 binary1 json openstep swift objc
                                     with objc, -header (right after fmt) also writes a .h file
       -insert keypath -type value   insert a value into each property list and write it back
                                     keypath: keys separated by '.', '\\.' for a dot inside a key;
                                     a number selects an array element, or, as the last component,
                                     the position to insert at (the array's count appends)
                                     -bool: true for "YES" or "true" (any case), false otherwise
                                     -integer: a 64-bit integer in decimal
                                     -float: a 64-bit floating-point number
                                     -string: the text itself, as UTF-8
                                     -date: as in an XML property list (2001-01-01T00:00:00Z);
                                            JSON cannot hold it
                                     -data: base64
                                     -xml: a whole property list, for arrays and dictionaries
                                     -json: a JSON value, for arrays and dictionaries
                                     -dictionary: an empty dictionary (no value argument)
                                     -array: an empty array (no value argument)

                                     -append after the value: add it to the end of the array
                                     that keypath names
       -replace keypath -type value  like -insert, but overwrite any value already at keypath
       -remove keypath               remove the value at keypath and write the file back
       -extract keypath fmt          write the value at keypath as a new document in format fmt
                                     fmt is one of: xml1 binary1 json openstep raw
                                     -expect type (right after fmt) fails unless the value has
                                     that type: bool integer float string date data dictionary
                                     array

                                     raw prints the bare value on standard output:
                                         bool: true or false
                                         integer, float: the number
                                         string: the text
                                         date: RFC 3339 in UTC (2001-01-01T00:00:00Z)
                                         data: base64
                                         dictionary: its keys, one per line
                                         array: its number of elements
                                     (or writes it to the file named by -o)
       -type keypath                 print the type of the value at keypath (see -expect above);
                                     -expect type fails unless it matches
       -create fmt                   write an empty dictionary in format fmt to each file
                                     ('-' writes it to standard output)
       -p                            print each property list for people to read
                                     (the layout may change: do not parse it)
       -archive                      print a keyed archive's object graph: each object once,
                                     with its class and keys, shared objects and cycles marked
                                     (a Stasis addition; not in Apple's plutil)
      Options for -convert, -insert, -replace, -remove, -extract and -create:
       -s                            print nothing on success
       -o path                       write the result to path instead of back to the file
                                     ('-' is standard output); with several files, the last
                                     one wins
       -e extension                  write the result next to the file, with this extension
       -r                            indent JSON and sort its keys
       -n                            no newline after raw and type output
       --                            every argument after this is a file name

      """
  }
}
