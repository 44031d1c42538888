import Testing

/// The tests that run served boards, host stacks (Bumble's and ours) and the tool as
/// processes over ptys, one at a time: each starts several processes, and on a two-core
/// machine running them side by side starves them into timeouts that test nothing.
@Suite(.serialized) struct BoardBenchTests {}
