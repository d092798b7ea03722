# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for reclaimctl(8)
#
# To add a command: add it to the function __reclaimctl_commands, its
# options below with "-n '__reclaimctl_using set'", and its operands with
# "-n '__reclaimctl_operand set 0'" (0 = first operand).

# "name<TAB>description", one a line.
function __reclaimctl_commands
    printf '%s\t%s\n' \
        status 'Show kernel support, knobs, nodes, kswapd threads, counters, pressure' \
        get 'Print knob values' \
        set 'Set a knob, checking its range first and its effect after' \
        threads 'Show the kswapd threads of every NUMA node' \
        help 'Show the help of a command'
end

# Knob names, then aliases (see reclaimctl(8), KNOBS).
function __reclaimctl_knobs
    printf '%s\t%s\n' \
        kswapd_threads 'kswapd threads per NUMA node with memory' \
        max_direct_reclaimers 'tasks in direct reclaim at once per node' \
        swap_round_robin_quota_kb 'KiB from a swap device before rotating' \
        swappiness 'cost of swapping anon memory vs dropping file pages' \
        watermark_scale_factor 'distance between watermarks' \
        watermark_boost_factor 'watermark boost after fragmentation events' \
        min_free_kbytes 'memory kept free for atomic allocations' \
        zone_reclaim_mode 'reclaim on the local node first (bit mask)' \
        threads 'alias of kswapd_threads' \
        throttle 'alias of max_direct_reclaimers' \
        swap-quota 'alias of swap_round_robin_quota_kb'
end

# Prints the command and then its operands (not its options); nothing
# before the command. The argument of --sysroot is not a command.
function __reclaimctl_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l cmd
    set -l dashdash 0
    while set -q words[1]
        set -l w $words[1]
        set -e words[1]
        if test -z "$cmd"
            switch $w
                case --sysroot
                    set -e words[1]
                case '-*'
                case '*'
                    set cmd $w
                    echo $w
            end
        else if test $dashdash -eq 0; and test "$w" = --
            set dashdash 1
        else if test $dashdash -eq 0; and test "$w" = --sysroot
            set -e words[1]
        else if test $dashdash -eq 0; and string match -qr -- '^-[^0-9]' $w
        else
            echo $w
        end
    end
end

function __reclaimctl_needs_command
    set -l w (__reclaimctl_words)
    not set -q w[1]
end

# True if the command is one of $argv.
function __reclaimctl_using
    set -l w (__reclaimctl_words)
    set -q w[1]; and contains -- $w[1] $argv
end

# True if the word being completed is operand number $argv[2] (0-based) of
# command $argv[1]; "any" for every operand.
function __reclaimctl_operand
    set -l w (__reclaimctl_words)
    set -q w[1]; and test "$w[1]" = $argv[1]; or return 1
    test "$argv[2]" = any; and return 0
    test (math (count $w) - 1) -eq $argv[2]
end

complete -c reclaimctl -f

# Global options, before the command.
complete -c reclaimctl -n __reclaimctl_needs_command -l sysroot -xa '(__fish_complete_directories)' -d 'Read and write the system files under DIR'
complete -c reclaimctl -n __reclaimctl_needs_command -s J -l json -d 'JSON output'
complete -c reclaimctl -n __reclaimctl_needs_command -l no-color -d 'No colors'
complete -c reclaimctl -n __reclaimctl_needs_command -s h -l help -d 'Show the help'
complete -c reclaimctl -n __reclaimctl_needs_command -s V -l version -d 'Print the version'
complete -c reclaimctl -n __reclaimctl_needs_command -a '(__reclaimctl_commands)'

# Options every command has; --sysroot and --no-color may follow the command too.
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -s J -l json -d 'JSON output'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -l sysroot -xa '(__fish_complete_directories)' -d 'Read and write the system files under DIR'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -l no-color -d 'No colors'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -s h -l help -d 'Show the help of the command'

# get
complete -c reclaimctl -n '__reclaimctl_using get' -s n -l values -d 'Print only the values, one per line'
complete -c reclaimctl -n '__reclaimctl_operand get any' -a '(__reclaimctl_knobs)'

# set
complete -c reclaimctl -n '__reclaimctl_using set' -s n -l dry-run -d 'Check VALUE and show the change without writing it'
complete -c reclaimctl -n '__reclaimctl_operand set 0' -a '(__reclaimctl_knobs)'

# help
complete -c reclaimctl -n '__reclaimctl_operand help 0' -a '(__reclaimctl_commands)'
