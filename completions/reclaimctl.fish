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
        set 'Set knobs, checking their range first and their effect after' \
        threads 'Show the kswapd threads of every NUMA node' \
        swap 'Show the swap rings; change the priority of a device safely' \
        autotune 'Plan knobs and swap priorities for this machine; apply the plan' \
        adapt 'Tune kswapd threads and watermark with the measured load' \
        monitor 'Show reclaim rates, kswapd CPU and pressure every interval' \
        stalls 'Show the processes delayed most by reclaim (taskstats)' \
        latency 'Show how long tasks wait in direct reclaim and at the throttle' \
        record 'Record rates, kswapd CPU, pressure and knobs into a file' \
        report 'Render recorded runs as one HTML page with charts' \
        sweep 'Run a workload under each knob value, record each run, compare them' \
        figures 'List the figures monitor, record, report and sweep measure' \
        check 'Find sysctl files that set the knobs, and what wins at boot' \
        verify 'Check that the knobs reclaimctl set are still as it left them' \
        preset 'List, show, compare and apply presets of knob values' \
        restore 'Undo the last change, or every change since boot' \
        history 'List the knob changes since boot' \
        boot 'Apply the configured preset, as the boot unit does' \
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
        page-cluster 'swap pages read in one attempt (power of two)' \
        vfs_cache_pressure 'reclaim of dentry and inode caches' \
        lru_gen_enabled 'multi-gen LRU features in use (bit mask)' \
        lru_gen_min_ttl_ms 'ms the working set is protected from eviction' \
        zswap_enabled 'compressed cache in memory in front of swap' \
        zswap_compressor 'compression algorithm of zswap' \
        zswap_max_pool_percent '% of memory the zswap pool may take' \
        zswap_accept_threshold_percent '% of the full pool before zswap stores again' \
        zswap_shrinker_enabled 'write cold zswap pages to swap under pressure' \
        numa_demotion_enabled 'reclaim migrates pages to a slower memory tier' \
        threads 'alias of kswapd_threads' \
        throttle 'alias of max_direct_reclaimers' \
        swap-quota 'alias of swap_round_robin_quota_kb' \
        mglru 'alias of lru_gen_enabled' \
        zswap 'alias of zswap_enabled' \
        demotion 'alias of numa_demotion_enabled'
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

# True if option -$argv[1] or --$argv[2] follows the command (short options
# may be clustered: -ea).
function __reclaimctl_seen
    set -l words (commandline -opc)
    set -e words[1]
    for w in $words
        test "$w" = --; and return 1
        test "$w" = --$argv[2]; and return 0
        string match -qr -- '^-[^-]*'$argv[1] $w; and return 0
    end
    return 1
end

complete -c reclaimctl -f

# Global options, before the command.
complete -c reclaimctl -n __reclaimctl_needs_command -l sysroot -xa '(__fish_complete_directories)' -d 'Read and write the system files under DIR'
complete -c reclaimctl -n __reclaimctl_needs_command -s J -l json -d 'JSON output'
complete -c reclaimctl -n __reclaimctl_needs_command -l color -xa 'auto always never' -d 'Color the headers'
complete -c reclaimctl -n __reclaimctl_needs_command -l no-color -d 'No colors'
complete -c reclaimctl -n __reclaimctl_needs_command -s h -l help -d 'Show the help'
complete -c reclaimctl -n __reclaimctl_needs_command -s V -l version -d 'Print the versions of reclaimctl and libreclaim'
complete -c reclaimctl -n __reclaimctl_needs_command -a '(__reclaimctl_commands)'

# Options every command has; --sysroot and --no-color may follow the command too.
# record and report write files of their own: no --json
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help record report' -s J -l json -d 'JSON output'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -l sysroot -xa '(__fish_complete_directories)' -d 'Read and write the system files under DIR'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -l color -xa 'auto always never' -d 'Color the headers'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -l no-color -d 'No colors'

# The table options (TABLES in reclaimctl(8)), for the commands with a table;
# -o completes the columns the command's --help lists.
function __reclaimctl_table
    set -l w (__reclaimctl_words)
    set -q w[1]; and contains -- $w[1] status threads swap autotune preset history check verify stalls latency figures
    or return 1
    not contains -- priority $w; and not contains -- apply $w; and not contains -- diff $w
end

function __reclaimctl_columns
    set -l w (__reclaimctl_words)
    set -l token (commandline -ct)
    # an empty list would make $head$col empty too
    set -l head (string match -r '^.*,|^\+' -- $token); or set head ''
    set -l bin (commandline -opc)[1]
    set -l table $w[2]
    set -q table[1]; or set table ''
    # latency's table is chosen by an option: the tasks' with --per-task
    if test "$w[1]" = latency
        set table kinds
        string match -q -- '--per-task*' (commandline -opc); and set table tasks
    end
    for col in (command $bin $w[1] --help 2>/dev/null | awk -v cmd=$w[1] -v table=$table '
        /^(Available output columns|Columns of .*):$/ { t[++n] = $0; next }
        /^ +[A-Z]/ && n { col[n] = col[n] " " $1 }
        END {
            for (i = 1; i <= n; i++)
                if (t[i] == "Columns of " cmd " " table ":") { print col[i]; exit }
            for (i = 1; i <= n; i++) print col[i]
        }' | string split ' ' | string match -v '' | sort -u)
        echo $head$col
    end
end

complete -c reclaimctl -n __reclaimctl_table -s o -l output -xa '(__reclaimctl_columns)' -d 'The columns to show (+LIST: added)'
complete -c reclaimctl -n __reclaimctl_table -l output-all -d 'Every column'
complete -c reclaimctl -n __reclaimctl_table -s n -l noheadings -d 'No header line'
complete -c reclaimctl -n __reclaimctl_table -s r -l raw -d 'Unaligned, blanks escaped'
complete -c reclaimctl -n __reclaimctl_table -s P -l pairs -d 'KEY="value" pairs, as lsblk -P'
# -b for the tables that have sizes: status and swap
complete -c reclaimctl -n '__reclaimctl_table; and __reclaimctl_using status swap' -s b -l bytes -d 'Sizes in bytes'
complete -c reclaimctl -n 'not __reclaimctl_needs_command; and not __reclaimctl_using help' -s h -l help -d 'Show the help of the command'

# get
complete -c reclaimctl -n '__reclaimctl_using get' -l values -d 'Print only the values, one per line'
complete -c reclaimctl -n '__reclaimctl_using get' -l sysctl -d 'Print vm.NAME = VALUE, as sysctl.d takes them'
complete -c reclaimctl -n '__reclaimctl_operand get any' -a '(__reclaimctl_knobs)'

# set
complete -c reclaimctl -n '__reclaimctl_using set' -l dry-run -d 'Check VALUE and show the change without writing it'
complete -c reclaimctl -n '__reclaimctl_using set' -s p -l persist -d 'Also write it to /etc/sysctl.d or /etc/tmpfiles.d/90-reclaimctl.conf'
complete -c reclaimctl -n '__reclaimctl_using set' -s f -l force -d 'Set it even if a sysctl file sets it'
# The operands of set are KNOB VALUE pairs: true when the word being
# completed is a KNOB.
function __reclaimctl_set_knob
    set -l w (__reclaimctl_words)
    test "$w[1]" = set; and test (math (count $w) % 2) -eq 1
end

complete -c reclaimctl -n __reclaimctl_set_knob -a '(__reclaimctl_knobs)'

# True when the word being completed is the VALUE of one of the knobs $argv.
function __reclaimctl_value_of
    set -l w (__reclaimctl_words)
    test "$w[1]" = set; and test (math (count $w) % 2) -eq 0
    and contains -- $w[-1] $argv
end

complete -c reclaimctl -n '__reclaimctl_value_of kswapd_threads vm.kswapd_threads threads max_direct_reclaimers vm.max_direct_reclaimers throttle zswap_enabled zswap numa_demotion_enabled demotion' -a auto -d 'The value autotune plans for this machine'
complete -c reclaimctl -n '__reclaimctl_value_of zswap_enabled zswap zswap_shrinker_enabled' -a 'Y N'
complete -c reclaimctl -n '__reclaimctl_value_of numa_demotion_enabled demotion' -a 'true false'
complete -c reclaimctl -n '__reclaimctl_value_of lru_gen_enabled mglru' -a 'y n'
complete -c reclaimctl -n '__reclaimctl_value_of zswap_compressor' -a 'deflate lzo lzo-rle 842 lz4 lz4hc zstd' -d 'compressor'

# swap
# The --sysroot directory of the command line, if any.
function __reclaimctl_sysroot
    set -l words (commandline -opc)
    set -l root
    while set -q words[1]
        switch $words[1]
            case --sysroot
                set -q words[2]; and set root $words[2]
            case '--sysroot=*'
                set root (string replace -- --sysroot= '' $words[1])
        end
        set -e words[1]
    end
    echo $root
end

# The active swap devices, from /proc/swaps (under --sysroot DIR when given).
function __reclaimctl_swap_devices
    set -l swaps (__reclaimctl_sysroot)/proc/swaps
    test -r $swaps; or return
    # the kernel escapes " \t\n\\" as \ooo, as fish does
    for line in (tail -n +2 $swaps)
        string unescape -- (string replace -r '\s.*' '' -- $line)
    end
end

# True when the word being completed is the DEVICE of "swap priority".
function __reclaimctl_swap_device
    set -l w (__reclaimctl_words)
    test (count $w) -eq 2; and test "$w[1]" = swap; and test "$w[2]" = priority
end

complete -c reclaimctl -n '__reclaimctl_using swap' -s p -l persist -d 'Also set pri= in the /etc/fstab entry of the device'
complete -c reclaimctl -n '__reclaimctl_using swap' -l dry-run -d 'Check and show the change without making it'
complete -c reclaimctl -n '__reclaimctl_operand swap 0' -a 'rings devices priority'
complete -c reclaimctl -n __reclaimctl_swap_device -a '(__reclaimctl_swap_devices)' -d 'Active swap device'

# autotune: --persist and --force need --apply; --apply --dry-run shows what
# --apply would do.
complete -c reclaimctl -n '__reclaimctl_using autotune' -l dry-run -d 'Show the plan without writing anything (the default)'
complete -c reclaimctl -n '__reclaimctl_using autotune' -s a -l apply -d "Set the knobs to the plan's values"
complete -c reclaimctl -n '__reclaimctl_using autotune; and __reclaimctl_seen a apply' -s p -l persist -d 'Also write them to /etc/sysctl.d/90-reclaimctl.conf'
complete -c reclaimctl -n '__reclaimctl_using autotune; and __reclaimctl_seen a apply' -s f -l force -d 'Also set knobs that a sysctl file sets'
complete -c reclaimctl -n '__reclaimctl_using autotune' -s e -l explain -d 'The reason for each value, under its row'

# restore, boot; history, verify and figures have the common options only
complete -c reclaimctl -n '__reclaimctl_using restore' -l boot -d "Put back every knob and swap priority as before boot's changes"
complete -c reclaimctl -n '__reclaimctl_using restore' -l dry-run -d 'Show what would be restored without writing it'
complete -c reclaimctl -n '__reclaimctl_using boot' -l dry-run -d 'Show what would change without writing it'
complete -c reclaimctl -n '__reclaimctl_using restore' -s p -l persist -d 'Also remove the persisted values'
complete -c reclaimctl -n '__reclaimctl_using restore' -s f -l force -d 'Also put back knobs another writer changed since'

# status [SECTION] --prometheus
complete -c reclaimctl -n '__reclaimctl_operand status 0' -a 'knobs nodes threads throttle swap rings devices zones counters pressure'
complete -c reclaimctl -n '__reclaimctl_using status' -l prometheus -d 'Prometheus text format'
complete -c reclaimctl -n '__reclaimctl_using status' -l textfile -xa '(__fish_complete_directories)' -d 'Write it to DIR/reclaimctl.prom'

# monitor
complete -c reclaimctl -n '__reclaimctl_using monitor' -s i -l interval -x -d 'Seconds between lines'
complete -c reclaimctl -n '__reclaimctl_using monitor' -s c -l count -x -d 'Stop after N lines'
complete -c reclaimctl -n '__reclaimctl_using monitor' -s N -l per-node -d 'A line per NUMA node too'
complete -c reclaimctl -n '__reclaimctl_using monitor' -s L -l latency -d 'Also the p99 and longest of direct reclaims and throttle waits'
complete -c reclaimctl -n '__reclaimctl_using monitor' -s n -l noheadings -d 'No header lines'

# adapt
complete -c reclaimctl -n '__reclaimctl_using adapt' -s i -l interval -x -d 'Seconds between samples'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l min -x -d 'Never fewer threads'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l max -x -d 'Never more threads'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l dry-run -d 'Decide and log, never write'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l once -d 'One step, then exit'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l keep -d 'On exit, leave the values as they are'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l only -x -a 'threads watermark' -d 'Move one knob alone'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l latency -d 'Also trace direct reclaims: their p99 in the reasons'
complete -c reclaimctl -n '__reclaimctl_using adapt' -s f -l force -d 'Also when a sysctl file sets the knobs'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l replay -rF -d 'The decisions during a recording'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l reset -d 'Put back the baseline of an adapt that died'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l up-cpu -x -d '% CPU per kswapd thread: saturated (90)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l up-direct -x -d 'Direct reclaims/s: persisting (10)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l up-window -x -d 'Seconds before a step up (30)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l down-cpu -x -d '% CPU per kswapd thread: quiet (40)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l down-direct -x -d 'Direct reclaims/s: quiet (1)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l down-psi -x -d 'PSI some avg10 %: quiet (10)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l down-window -x -d 'Seconds of quiet before a step down (120)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l cooldown -x -d 'Seconds after a change (60)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l busy-cpu -x -d '% of the CPU kswapd leaves that other work takes: no step up (90)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l wmark-hits -x -d 'Early kswapd wake-ups/s: woke too late (1)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l wmark-step -x -d 'watermark_scale_factor step (10)'
complete -c reclaimctl -n '__reclaimctl_using adapt' -l wmark-max -x -d 'watermark_scale_factor at most (100)'

# stalls
complete -c reclaimctl -n '__reclaimctl_using stalls' -s i -l interval -x -d 'Measure over this many seconds'
complete -c reclaimctl -n '__reclaimctl_using stalls' -s t -l top -x -d 'Show at most N processes'
complete -c reclaimctl -n '__reclaimctl_using stalls' -l enable -d 'Turn delay accounting on for the run'

# latency
complete -c reclaimctl -n '__reclaimctl_using latency' -s i -l interval -x -d 'Also report each interval of this many seconds'
complete -c reclaimctl -n '__reclaimctl_using latency' -s d -l duration -x -d 'Run this long (0: until interrupted)'
complete -c reclaimctl -n '__reclaimctl_using latency' -l histogram -d 'The log2 histogram of each kind'
complete -c reclaimctl -n '__reclaimctl_using latency' -l per-task -d 'The N tasks of each kind that waited longest (=N, 10)'
complete -c reclaimctl -n '__reclaimctl_using latency' -l prometheus -d 'The run as Prometheus histograms'
complete -c reclaimctl -n '__reclaimctl_using latency' -l textfile -xa '(__fish_complete_directories)' -d 'Write the histograms to DIR at each interval'

# record [-- COMMAND...], report FILE...
complete -c reclaimctl -n '__reclaimctl_using record' -l file -rF -d 'The file to write'
complete -c reclaimctl -n '__reclaimctl_using record' -s i -l interval -x -d 'Seconds between samples'
complete -c reclaimctl -n '__reclaimctl_using record' -s d -l duration -x -d 'Stop after this long (90, 5m, 1h)'
complete -c reclaimctl -n '__reclaimctl_using record' -l latency -d 'Also how long reclaim made tasks wait'
complete -c reclaimctl -n '__reclaimctl_using record' -F
complete -c reclaimctl -n '__reclaimctl_using report' -l html -rF -d 'The HTML file to write'
complete -c reclaimctl -n '__reclaimctl_using report' -F

# sweep KNOB=VALUES... --dir DIR -- COMMAND...
complete -c reclaimctl -n '__reclaimctl_using sweep' -l dir -xa '(__fish_complete_directories)' -d 'The directory of the records and the summary'
complete -c reclaimctl -n '__reclaimctl_using sweep' -l repeat -x -d 'Run each combination N times'
complete -c reclaimctl -n '__reclaimctl_using sweep' -l interleave -d 'All values, then all again (the default)'
complete -c reclaimctl -n '__reclaimctl_using sweep' -l no-interleave -d 'Each value N times in a row'
complete -c reclaimctl -n '__reclaimctl_using sweep' -s i -l interval -x -d 'Seconds between samples'
complete -c reclaimctl -n '__reclaimctl_using sweep' -l latency -d 'Also the p99 and longest of direct reclaims and throttle waits'
complete -c reclaimctl -n '__reclaimctl_using sweep' -s m -l metric -x -d 'NAME=REGEX: a figure from the command output'
complete -c reclaimctl -n '__reclaimctl_using sweep' -l warmup -x -d 'A shell command run before each run'
complete -c reclaimctl -n '__reclaimctl_using sweep' -s k -l keep-going -d 'Go on after a failed run'
complete -c reclaimctl -n '__reclaimctl_using sweep' -s f -l force -d 'Also knobs that another sysctl file sets'
complete -c reclaimctl -n '__reclaimctl_using sweep; and not contains -- -- (commandline -opc)' -xa '(__reclaimctl_knobs | string replace \t =\t)'
function __reclaimctl_sweep_at_command
    set -l w (commandline -opc)
    test "$w[-1]" = --
end
complete -c reclaimctl -n '__reclaimctl_using sweep; and __reclaimctl_sweep_at_command' -xa '(__fish_complete_command)'
complete -c reclaimctl -n '__reclaimctl_using sweep; and contains -- -- (commandline -opc); and not __reclaimctl_sweep_at_command' -F

# preset list|show|diff|apply NAME
# The preset names (reclaimctl.preset(5)): the administrator's, under
# --sysroot DIR when given, and the shipped ones.
function __reclaimctl_presets
    set -l root (__reclaimctl_sysroot)
    set -q root[1]; or set root ''
    set -l shipped $RECLAIMCTL_PRESET_DIR
    test -n "$shipped"; or set shipped '@RECLAIM_PRESET_DIR@'
    for f in $root/etc/reclaimctl/presets/*.preset $shipped/*.preset
        test -f $f; or continue
        set -l name (string replace -r '\.preset$' '' -- (basename -- $f))
        string match -qr '^\.|\s' -- $name; and continue
        echo $name
    end | sort -u
end

# True when the word being completed is the NAME of "preset show|diff|apply".
function __reclaimctl_preset_name
    set -l w (__reclaimctl_words)
    test (count $w) -eq 2; and test "$w[1]" = preset; and contains -- $w[2] show diff apply
end

# True when the subcommand of preset is apply.
function __reclaimctl_preset_apply
    set -l w (__reclaimctl_words)
    test "$w[1]" = preset; and test "$w[2]" = apply
end

# True when the subcommand of preset is apply or diff, or not given yet
# (preset -p diff NAME).
function __reclaimctl_preset_change
    set -l w (__reclaimctl_words)
    test "$w[1]" = preset; or return 1
    not set -q w[2]; or contains -- $w[2] apply diff
end

complete -c reclaimctl -n '__reclaimctl_operand preset 0' -a 'list show diff apply'
complete -c reclaimctl -n __reclaimctl_preset_apply -l dry-run -d 'Show what would change without writing it'
complete -c reclaimctl -n __reclaimctl_preset_change -s p -l persist -d 'Also write the values to /etc/sysctl.d/90-reclaimctl.conf'
complete -c reclaimctl -n __reclaimctl_preset_change -s f -l force -d 'Also set knobs that a sysctl file sets'
complete -c reclaimctl -n __reclaimctl_preset_name -a '(__reclaimctl_presets)' -d 'Preset'

# help
complete -c reclaimctl -n '__reclaimctl_operand help 0' -a '(__reclaimctl_commands)'
