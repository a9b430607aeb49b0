#version 460
// The sky and the ground (include/background.glsl).
#include "include/background.glsl"
