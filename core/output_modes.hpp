#pragma once
// What the arbiter writes (databases, match folders, records, transcripts, replays, bots' logs)
// is readable by its owner only unless the user asks otherwise: a folder 0700, a file 0600, by
// the arbiter's umask (077). A mistake in what a bot's view shows then still does not hand it
// the live game. Bots get the user's own umask back: what a bot writes in its folder keeps the
// modes it always had.
#include <sys/types.h>

namespace arb {

// Sets the arbiter's umask to 077, keeping the user's for bots. Call first thing in main.
void keep_outputs_private();

// The user's umask again for the arbiter's own files (--shared-outputs, or pages meant to be
// read by others such as a report).
void share_outputs();

// The umask every bot starts with: the user's.
mode_t bot_umask();

}  // namespace arb
