#pragma once
// The .dighere format's former header name, kept only while arbiter/view includes it; the
// format is samurai_replay.hpp.
#include "rules/samurai/samurai_replay.hpp"
