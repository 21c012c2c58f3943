/* Times commands in turns: each turn runs every command once (standard output to /dev/null),
   the order turned each time, for TURNS turns after 20 unmeasured ones. hyperfine times one
   command's runs after another's, so a machine whose speed drifts from second to second (a
   shared VM: the C floor took 1.7-2.8 ms within one hour) shows the drift as a difference; a
   ratio taken within each turn does not. scripts/bench/random.sh builds and runs it.

     turns TURNS NAME=COMMAND [ARG...] -- NAME=COMMAND [ARG...] ...

   (A `--` always parts two commands: none can be given one as an argument.)

   Prints one JSON object: the names, and each command's times in seconds, turn by turn (the
   reader takes medians and the ratios within each turn). A command that fails stops it. */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

enum { warmup = 20, most = 64 };

int main(int argc, char **argv) {
    char *rest = NULL;
    long asked = argc > 2 ? strtol(argv[1], &rest, 10) : 0;
    int turns = rest && *rest == 0 && asked > 0 && asked <= 1000000 ? (int)asked : 0;
    if (turns < 1) {
        fprintf(stderr, "usage: turns TURNS NAME=COMMAND [ARG...] [-- NAME=COMMAND [ARG...]]...\n");
        return 64;
    }
    char **commands[most];
    const char *names[most];
    int count = 0;
    int starts = 1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            argv[i] = NULL;
            starts = 1;
        } else if (starts) {
            char *equals = strchr(argv[i], '=');
            if (!equals || count == most || strpbrk(argv[i], "\"\\")) { fprintf(stderr, "turns: %s: not NAME=COMMAND, or too many\n", argv[i]); return 64; }
            *equals = 0;
            names[count] = argv[i];
            argv[i] = equals + 1;
            commands[count++] = &argv[i];
            starts = 0;
        }
    }
    double *times = calloc((size_t)turns * (size_t)count, sizeof *times);
    if (count == 0) { fprintf(stderr, "turns: no command\n"); return 64; }
    if (!times) return 71;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    for (int turn = 0; turn < warmup + turns; turn++) {
        for (int k = 0; k < count; k++) {
            int which = (k + turn) % count;
            struct timespec start, end;
            pid_t child;
            int status;
            clock_gettime(CLOCK_MONOTONIC, &start);
            if (posix_spawn(&child, commands[which][0], &actions, NULL, commands[which], environ) != 0) {
                fprintf(stderr, "turns: cannot run %s\n", commands[which][0]);
                return 69;
            }
            if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                fprintf(stderr, "turns: %s failed\n", names[which]);
                return 70;
            }
            clock_gettime(CLOCK_MONOTONIC, &end);
            if (turn >= warmup)
                times[which * turns + turn - warmup] = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
        }
    }
    printf("{\"names\": [");
    for (int which = 0; which < count; which++) printf("%s\"%s\"", which ? ", " : "", names[which]);
    printf("], \"times\": [");
    for (int which = 0; which < count; which++) {
        printf("%s[", which ? ", " : "");
        for (int turn = 0; turn < turns; turn++) printf("%s%.9f", turn ? ", " : "", times[which * turns + turn]);
        printf("]");
    }
    printf("]}\n");
    return 0;
}
