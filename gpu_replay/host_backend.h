// gpu_replay/host_backend.h — the in-process host backend (the arithmetic header on the CPU).
#pragma once

#include "gpu_replay/plugin_api.h"

namespace mxreplay {

/// The host backend's function table (always available).
const PluginV1 *hostPlugin();
/// Worker threads of the host backend (0: one per hardware thread).
void setHostThreads(int n);

}  // namespace mxreplay
