#ifndef QUOTECTL_START_H
#define QUOTECTL_START_H

/* What quotectl does before the Swift runtime starts (start.c). Called first thing in main:
   takes back the SWIFT_BACKTRACE the start set for the runtime, so that the programs quotectl
   runs (a pager, notify-send) get the environment the user gave it. */
void quotectl_start_done(void);

#endif
