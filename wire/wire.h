// The PostgreSQL protocol v3 server (sockets, codec, sessions).
// Built in the wire issue; it depends on planner only.
#pragma once

#include "planner/planner.h"
