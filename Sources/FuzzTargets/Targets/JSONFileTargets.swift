/// The JSON files `reflector-emu` reads, each through its reader: ToolFiles' directly
/// (`FileCalls`), and through `ToolsAdapter` the ones only a command of ReflectorTools reads
/// (plan's, nearby's, sweep's): no input may trap the reader, and an accepted file must be usable (a plan
/// configuration plans a procedure, security material instantiates the DRBG, a board profile
/// gives its capabilities, a calibration reads back as itself, a scenario builds, a sweep spec or shard reads back as itself).
enum JSONFileTargets {
    static let all: [FuzzTarget] = [
        FuzzTarget("json-plan", "plan --config: the CS configuration file, then one procedure planned", seeds: { SeedFiles.planConfigs }) {
            _ = ToolsAdapter.readPlanConfig($0)
        },
        FuzzTarget("json-security", "plan --security: the CS security material file", seeds: { SeedFiles.security }) {
            _ = FileCalls.readSecurity($0)
        },
        FuzzTarget("json-deployment", "tdoa DEPLOYMENT.json: anchors, zones, path", seeds: { SeedFiles.deployments }) {
            _ = FileCalls.readDeployment($0)
        },
        FuzzTarget("json-scenario", "nearby --scenario FILE: a scenario as flags", seeds: { SeedFiles.scenarios }) {
            _ = ToolsAdapter.readScenario($0)
        },
        FuzzTarget("json-board", "Hardware/boards/*.json: a board profile", seeds: { SeedFiles.boards }) {
            _ = FileCalls.readBoardProfile($0)
        },
        FuzzTarget("json-calibration", "--calibration FILE: a board calibration, or a board profile holding one; written back and read again",
                   seeds: { SeedFiles.calibrations }) {
            _ = FileCalls.readCalibration($0)
        },
        FuzzTarget("json-bonds", "accessory --bonds FILE: the bond file, read and written back", seeds: { SeedFiles.bonds }) {
            _ = FileCalls.readBonds($0)
        },
        FuzzTarget("json-sweep-spec", "sweep SPEC.json: the grid's keys, written back and read again", seeds: { SeedFiles.sweepSpecs }) {
            _ = ToolsAdapter.readSweepSpec($0)
        },
        FuzzTarget("json-sweep-shard", "sweep merge SHARD.json: a shard's raw errors, written back bit for bit; a one-shard split merged and reported",
                   seeds: { SeedFiles.sweepShards }) {
            _ = ToolsAdapter.readSweepShard($0)
        },
    ]
}
