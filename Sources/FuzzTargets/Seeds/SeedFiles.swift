import Foundation

/// The JSON files the tool reads, as seeds: the repository's examples and board profiles (read
/// from the source tree when the seeds are generated) and small variants from docs/formats.md.
enum SeedFiles {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Seeds
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // FuzzTargets, Sources, root

    static func file(_ path: String) -> [[UInt8]] {
        FileManager.default.contents(atPath: repository.appendingPathComponent(path).path).map { [[UInt8]($0)] } ?? []
    }

    static func texts(_ items: [String]) -> [[UInt8]] { items.map { Array($0.utf8) } }

    static var planConfigs: [[UInt8]] {
        file("Examples/plan-config.json") + texts([
            #"{"main_mode": 1}"#,
            #"{"main_mode": 3, "sub_mode": 2, "channel_selection": "3c", "ch3c_shape": "x", "ch3c_jump": 8, "rtt_type": "random_128", "leftover_bits": "keep_within_procedure"}"#,
            #"{"main_mode": 2, "sub_mode": 1, "channel_map": "00000000000000000FFF", "channel_classification": "1FFFFFFFFFFFFC7FFFFC", "cs_sync_phy": "2M2BT", "subevent_interval_us": 80000}"#,
        ])
    }

    static var security: [[UInt8]] {
        file("Examples/security-sample.json") + texts([#"{"cs_iv": "00000000000000000000000000000000", "cs_in": "FFFFFFFFFFFFFFFF", "cs_pv": "0123456789abcdef0123456789ABCDEF"}"#])
    }

    static var bonds: [[UInt8]] {
        texts([
            #"{"format": "reflector-emu bonds 1", "address": "C30000000001", "irk": "000102030405060708090A0B0C0D0E0F", "bonds": []}"#,
            #"{"format": "reflector-emu bonds 1", "address": "FFFFFFFFFFFF", "irk": "000102030405060708090a0b0c0d0e0f", "bonds": [{"peer": "F0F1F2F3F4F5", "peer_random": true, "peer_irk": "404142434445464748494A4B4C4D4E4F", "ltk": "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF", "authenticated": true}, {"peer": "C0FFEE000099", "peer_random": false, "ltk": "00000000000000000000000000000000"}]}"#,
            // A phone's file (range --bonds): a public identity; a legacy bond with EDIV and Rand, CCCDs.
            #"{"format": "reflector-emu bonds 1", "address": "0000C0FFEE00", "address_random": false, "irk": "000102030405060708090A0B0C0D0E0F", "bonds": [{"peer": "C30000000001", "peer_random": true, "peer_irk": "000102030405060708090A0B0C0D0E0F", "ltk": "A0A1A2A3A4A5A6A7A8A9AAABACADAEAF", "authenticated": true, "ediv": "1234", "rand": "0102030405060708", "client_configuration": [{"handle": 21, "value": 2}]}]}"#,
        ])
    }

    static var deployments: [[UInt8]] {
        file("Examples/dltdoa-room.json") + file("Examples/dltdoa-clusters.json") + texts([
            #"{"anchors": [{"address": "0A01", "position_m": [0, 0, 2.8], "cluster": 0, "initiator": true}, {"address": 2562, "position_m": [6, 0, 2.8], "cluster": 0}, {"address": "0A03", "position_m": [6, 5, 2.8], "cluster": 0, "clock_ppm": -12, "drift_ppm_per_s": 0.01}], "nlos_zones": [{"min_m": [4, 3, 0], "max_m": [5, 4, 3], "bias_m": 3}], "path": [{"t_s": 0, "position_m": [2, 2, 1.2]}, {"t_s": 6, "position_m": [8, 2, 1.2]}], "receiver_clock_ppm": -6.5, "timestamp_noise_m": 0.1, "loss_probability": 0.02, "block_ms": 200, "seed": 1}"#,
        ])
    }

    static var scenarios: [[UInt8]] {
        texts([
            #"{"accessory": "moving", "hint": "moving", "background": ["4:6"], "coexistence": ["2@8"], "camera": true}"#,
            #"{"distance": 2.5, "duration": 6, "phone": "sway", "hint": "stationary", "channel": "two-ray:3:0.7", "snr": 25, "seed": 3, "camera": false}"#,
            #"{"phone": "still", "channel": "tgn-d", "coexistence": ["none", "heavy@2"]}"#,
        ])
    }

    static var sweepSpecs: [[UInt8]] {
        file("Examples/sweep.json") + texts([
            #"{"distances": "1:30:5", "channels": "free,light", "snr": 20, "estimators": ["kay", "ml"], "seeds": 3, "procedures": 5, "seed": 18446744073709551615}"#,
            #"{"distances": [0.5, 1e1], "channels": ["two-ray:0.5-5:0.3-0.9", "two-ray:1e-3-2:0.5", "tgn-b"], "antenna-paths": [1, 2, 3, 4], "pct": ["inline", "ras"]}"#,
            #"{"snr": [-10, 80, 2.5e1], "pct": "ras", "seeds": 1e2}"#,
        ])
    }

    static var sweepShards: [[UInt8]] {
        ToolsAdapter.sweepShardSeeds() + texts([
            #"{"format": "reflector-emu sweep shard 2", "spec": {"distances": [2], "channels": ["free"], "estimators": ["kay"], "seeds": 2, "procedures": 2}, "shard": "0/1", "realizations": [{"index": 0, "errors": [[0.1, null]], "bounds": [null, 0.05]}, {"index": 1, "errors": [[-0.0, 1e-300]], "bounds": [5e-324, null]}]}"#,
            #"{"format": "reflector-emu sweep shard 1", "spec": {"distances": [2], "channels": ["free"], "estimators": ["kay"], "seeds": 2, "procedures": 2}, "shard": "0/1", "realizations": [{"index": 0, "errors": [[0.1, null]]}, {"index": 1, "errors": [[-0.0, 1e-300]]}]}"#,
        ])
    }

    static var calibrations: [[UInt8]] {
        file("Examples/silabs-path-calibration.json") + texts([
            #"{"format": "reflector-emu board calibration", "reference": "absolute", "path_delays_m": [0.41, 0.93, 0.12, 1.62], "rtt_offset_m": 0.35, "distance_m": 1, "estimator": "ml", "procedures": 39, "source": "capture.txt"}"#,
            #"{"name": "b", "antennas": 2, "bluetooth_version": "6.3", "antenna_switch": {"gpio_mask": "00000003", "patterns": ["00000001", "00000002"]}, "t_sw_us": 10, "calibration": {"reference": "relative", "path_delays_m": [-0.2, 0.2]}}"#,
        ])
    }

    static var boards: [[UInt8]] {
        ["emulated-reflector", "nrf54l15dk", "nrf54l15dk-4ant-example"].flatMap { file("Hardware/boards/\($0).json") }
    }
}
