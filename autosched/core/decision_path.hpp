#pragma once
/// @file
/// Marks the functions a selector runs at every decision (the decision
/// point's choose/observe, the RL agent's policy, update, rates and reward).
/// GCC places them in .text.hot, which the linker keeps together: a
/// coordinator whose caches and TLB the loop's work has emptied pays a miss
/// per page it touches, and the decision now spans 2-3 code pages instead of
/// about 6 (rank 0 at 200 SMPI ranks: docs/RESULTS.md, issue 13).
#if defined(__GNUC__)
#define AUTOSCHED_DECISION_PATH [[gnu::hot]]
#else
#define AUTOSCHED_DECISION_PATH
#endif
