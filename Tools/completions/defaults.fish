# fish completion for Stasis's defaults (its commands and value types as in `defaults help`).
set -l commands read read-type write rename delete import export domains find help
complete -c defaults -f
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a read -d 'show defaults'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a read-type -d 'show the type of a value'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a write -d 'write a domain or a key'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a rename -d 'rename a key'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a delete -d 'delete a domain or a key'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a import -d 'write a plist to a domain'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a export -d 'save a domain as a plist'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a domains -d 'list all domains'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a find -d 'list entries containing a word'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -a help -d 'print the help'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -o currentHost -d 'the host-specific domains (refused here)'
complete -c defaults -n "not __fish_seen_subcommand_from $commands" -o host -x -d 'a host'
complete -c defaults -n "__fish_seen_subcommand_from read read-type write rename delete import export" -o app -x -d "an application's domain"
complete -c defaults -n "__fish_seen_subcommand_from read read-type write rename delete import export" -o globalDomain -d 'the global domain'
complete -c defaults -n "__fish_seen_subcommand_from read read-type write rename delete import export" -o g -d 'the global domain'
complete -c defaults -n "__fish_seen_subcommand_from read read-type write rename delete import export" -a NSGlobalDomain -d 'the global domain'
complete -c defaults -n "__fish_seen_subcommand_from write" -o string -o data -o int -o integer -o float -o date -o array -o array-add -o dict -o dict-add -d 'a value type'
complete -c defaults -n "__fish_seen_subcommand_from write" -o bool -o boolean -x -a 'true false yes no' -d 'a boolean'
complete -c defaults -n "__fish_seen_subcommand_from import export" -F
