/*
 * Runs a command and reports its peak RSS and CPU time.
 *
 * The benchmark cannot read these from wait4() itself: Linux carries the RSS a process had when
 * it called exec into the new program's ru_maxrss, so every child of the Python driver would
 * report at least the driver's own ~30 MiB. A command started from this small process reports
 * its own peak.
 *
 * usage: peak_rss REPORT COMMAND [ARG...]
 * Writes "<peak RSS KiB> <user s> <system s>" to REPORT when COMMAND ends, and exits with its
 * status (128 + the signal's number when a signal ended it). Exits 127 when COMMAND cannot run.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: peak_rss REPORT COMMAND [ARG...]\n"); return 127; }
    pid_t child = fork();
    if (child < 0) { perror("peak_rss: fork"); return 127; }
    if (child == 0) {
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) { perror("peak_rss: wait4"); return 127; }
    FILE *report = fopen(argv[1], "w");
    if (!report) { perror(argv[1]); return 127; }
    fprintf(report, "%ld %ld.%06ld %ld.%06ld\n", usage.ru_maxrss, (long)usage.ru_utime.tv_sec, (long)usage.ru_utime.tv_usec,
            (long)usage.ru_stime.tv_sec, (long)usage.ru_stime.tv_usec);
    fclose(report);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
