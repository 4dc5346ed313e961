#pragma once
// The game log's former header name, kept only while arbiter/view includes it; the log is
// planowanie_replay.hpp.
#include "rules/planowanie/planowanie_replay.hpp"
