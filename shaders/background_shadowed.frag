#version 460
// The sky and the ground, the ground shadowed by the solids (include/background.glsl).
#define RECEIVE_SHADOWS
#include "include/background.glsl"
