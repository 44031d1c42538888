/// The live page's style sheet: panels in a grid, one colour per series and antenna path.
enum LiveViewPageStyle {
    static let css = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0 auto; padding: 12px 20px; max-width: 1400px; color: #222; background: #fafafa;
               display: grid; grid-template-columns: repeat(auto-fit, minmax(560px, 1fr)); gap: 12px; }
        header, .summary, .wide { grid-column: 1 / -1; }
        h1 { font-size: 20px; margin: 0; }
        h2 { font-size: 15px; margin: 0 0 4px; }
        #status { margin: 2px 0; color: #555; }
        .summary { white-space: pre-line; margin: 0; padding: 8px 10px; background: #eef3f8; border-radius: 4px; font-family: ui-monospace, monospace; font-size: 13px; }
        .panel { background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 8px 10px; }
        svg { width: 100%; height: auto; display: block; }
        pre { margin: 0; white-space: pre-wrap; font-size: 13px; }
        .chooser { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
        .chooser input[type=range] { flex: 1; min-width: 200px; }
        #chosen-row { margin: 0; font-family: ui-monospace, monospace; font-size: 13px; width: 100%; }
        .legend { font-weight: normal; font-size: 12px; color: #555; margin-left: 12px; }
        .legend i { display: inline-block; width: 14px; height: 3px; margin: 0 4px 3px 8px; vertical-align: middle; }
        .grid { stroke: #eee; } .frame { fill: none; stroke: #999; }
        .tick { font-size: 10px; fill: #666; } .label { font-size: 11px; fill: #333; }
        svg path { stroke-width: 1.5; fill: none !important; } path.dash { stroke-dasharray: 5 4; }
        .truth { stroke: #888; background: #888; } .smoothed { stroke: #1f77b4; background: #1f77b4; }
        .raw, .raw circle { fill: #ff7f0e; background: #ff7f0e; } .quality { stroke: #2ca02c; } path.rawline { stroke: #ff7f0e; stroke-width: 0.8; }
        .p0 { stroke: #1f77b4; fill: #1f77b4; background: #1f77b4; } .p1 { stroke: #d62728; fill: #d62728; background: #d62728; }
        .p2 { stroke: #9467bd; fill: #9467bd; background: #9467bd; } .p3 { stroke: #8c564b; fill: #8c564b; background: #8c564b; }
        .q0 { fill: #2ca02c; background: #2ca02c; } .q1 { fill: #d62728; background: #d62728; } .q2 { fill: #bbb; background: #bbb; }
        .marker { stroke-width: 1.2; stroke-dasharray: 3 3; } .marker-label { font-size: 10px; }
        .marker.first { stroke: #d62728; } .marker-label.first { fill: #d62728; }
        .marker.estimate { stroke: #ff7f0e; } .marker-label.estimate { fill: #ff7f0e; }
        .marker.truth { stroke: #555; } .marker-label.truth { fill: #555; }
        .marker.fit { stroke: #9467bd; stroke-dasharray: 1 3; } .marker-label.fit { fill: #9467bd; }
        .trace, .tones, .map, .direction, .status-lines { display: none; }
        body.has-status .status-lines { display: block; } h2.status-lines { margin-top: 8px; }
        body.has-trace .trace, body.has-tones .tones, body.has-map .map, body.has-direction .direction { display: block; }
        body.has-tones.one-sided .round-trip { display: none; }
        body.has-tones .chooser { display: flex; }
        #camera { max-width: 520px; margin: 0 auto; }
        #map { max-width: 900px; margin: 0 auto; }
        .a-init { fill: #d62728; background: #d62728; } .a-resp { fill: #2ca02c; background: #2ca02c; }
        .a-rej { fill: none; stroke: #000; stroke-width: 2; background: #000; } .zone { fill: #9467bd; fill-opacity: 0.12; stroke: #9467bd; }
        .anchor-label { font-size: 10px; fill: #333; }
        .table { overflow-x: auto; max-height: 420px; overflow-y: auto; }
        table { border-collapse: collapse; font-family: ui-monospace, monospace; font-size: 12px; }
        th, td { padding: 2px 8px; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
        th { position: sticky; top: 0; background: #fff; font-weight: 600; }
        .chosen-mark { stroke: #000; stroke-width: 1; fill: none; }
        """
}
