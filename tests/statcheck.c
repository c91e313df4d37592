/*
 * statcheck: prints what src/stats.c gives for the cases on stdin, one per
 * line, for tests/stats.sh to hold against tests/stats_oracle.py:
 *   tango X Y N         ->  tango X Y N => DIFF LO HI
 *   mcnemar X Y         ->  mcnemar X Y => P
 *   passk C N K         ->  passk C N K => VALUE
 *   mean V1 V2 ...      ->  mean V1 V2 ... => MEAN LO HI
 *   wilson X N          ->  wilson X N => LO HI
 * Numbers are printed with 17 significant digits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int main(void)
{
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char *save = NULL, *word = strtok_r(line, " \t\n", &save);
        if (!word)
            continue;
        if (strcmp(word, "tango") == 0) {
            unsigned long x = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            unsigned long y = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            unsigned long n = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            double d;
            interval r = tango(x, y, n, &d);
            printf("tango %lu %lu %lu => %.17g %.17g %.17g\n", x, y, n, d, r.lo,
                   r.hi);
        } else if (strcmp(word, "mcnemar") == 0) {
            unsigned long x = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            unsigned long y = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            printf("mcnemar %lu %lu => %.17g\n", x, y, mcnemar_exact(x, y));
        } else if (strcmp(word, "passk") == 0) {
            unsigned long c = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            unsigned long n = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            unsigned long k = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            printf("passk %lu %lu %lu => %.17g\n", c, n, k, pass_hat_k(c, n, k));
        } else if (strcmp(word, "mean") == 0) {
            double v[256];
            unsigned long m = 0;
            char *t;
            while (m < 256 && (t = strtok_r(NULL, " \n", &save)))
                v[m++] = strtod(t, NULL);
            double mean;
            interval r = mean_interval(v, m, &mean);
            printf("mean");
            for (unsigned long i = 0; i < m; i++)
                printf(" %.17g", v[i]);
            printf(" => %.17g %.17g %.17g\n", mean, r.lo, r.hi);
        } else if (strcmp(word, "wilson") == 0) {
            unsigned long x = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            unsigned long n = strtoul(strtok_r(NULL, " ", &save), NULL, 10);
            interval r = wilson(x, n);
            printf("wilson %lu %lu => %.17g %.17g\n", x, n, r.lo, r.hi);
        } else {
            fprintf(stderr, "statcheck: unknown case %s\n", word);
            return 2;
        }
    }
    return 0;
}
