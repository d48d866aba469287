// The catalog: table, column, type, constraint, index, view and sequence
// definitions kept as documents, and the mapping sequence <-> counter row.
// Built in the SQL issue; this header marks the layer's place (it depends on
// docstore only).
#pragma once

#include "docstore/docstore.h"
