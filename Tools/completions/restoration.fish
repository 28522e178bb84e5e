# fish completion for Stasis's restoration (its commands as in `restoration --help`).
set -l commands dump diff why help
complete -c restoration -f
complete -c restoration -n "not __fish_seen_subcommand_from $commands" -a dump -d 'print a snapshot'
complete -c restoration -n "not __fish_seen_subcommand_from $commands" -a diff -d 'what changed between two snapshots'
complete -c restoration -n "not __fish_seen_subcommand_from $commands" -a why -d 'why an object was saved or not'
complete -c restoration -n "not __fish_seen_subcommand_from $commands" -a help -d 'print the help'
complete -c restoration -n "not __fish_seen_subcommand_from $commands" -s h -l help -d 'print the help'
complete -c restoration -n "__fish_seen_subcommand_from dump diff why" -F
