/// The live view's one page: a self-contained HTML document (its style and script inline,
/// nothing fetched but its own event stream, which the server's Content-Security-Policy
/// enforces) that draws what the command publishes with SVG. The script is written to be
/// read: open the page's source.
enum LiveViewPage {
    static let octets = Array(html.utf8)

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>reflector-emu live view</title>
        <style>
        \(LiveViewPageStyle.css)
        </style>
        </head>
        <body>
        <header>
          <h1>reflector-emu <span id="command">live view</span></h1>
          <p id="status">connecting…</p>
        </header>
        <p id="summary" class="summary">no summary yet: the run is going on</p>
        <section class="panel wide trace">
          <h2>Distance <span class="legend"><i class="truth"></i>truth <i class="raw"></i>raw <i class="smoothed"></i>smoothed</span></h2>
          <svg id="trace" role="img" aria-label="distance trace"></svg>
          <svg id="quality" class="short" role="img" aria-label="estimate quality"></svg>
        </section>
        <section class="panel wide chooser tones">
          <label for="chosen">Procedure</label>
          <input type="range" id="chosen" min="0" max="0" value="0" disabled>
          <label><input type="checkbox" id="follow" checked> follow the latest</label>
          <p id="chosen-row">no procedure yet</p>
        </section>
        <section class="panel tones">
          <h2>Amplitude per channel <span class="legend" id="paths-legend"></span></h2>
          <svg id="amplitude" role="img" aria-label="amplitude against frequency"></svg>
        </section>
        <section class="panel tones">
          <h2 id="phase-title">Round-trip phase, unwrapped</h2>
          <svg id="phase" role="img" aria-label="phase against frequency"></svg>
        </section>
        <section class="panel tones round-trip">
          <h2>Impulse response (IFFT) <span class="legend">with the multipath fit's paths</span></h2>
          <svg id="impulse" role="img" aria-label="impulse response"></svg>
        </section>
        <section class="panel tones">
          <h2>Tone quality per step <span class="legend"><i class="q0"></i>good <i class="q1"></i>bad <i class="q2"></i>unrated</span></h2>
          <svg id="steps" role="img" aria-label="tone quality per step"></svg>
        </section>
        <section class="panel wide direction">
          <h2>Direction <span class="legend"><i class="p0"></i>azimuth <i class="p1"></i>elevation <i class="raw"></i>error against the truth</span></h2>
          <svg id="angles" role="img" aria-label="direction over time"></svg>
          <h2>In the camera's frame <span class="legend">where the accessory appears: azimuth right, elevation up; the latest updates, the newest ringed</span></h2>
          <svg id="camera" role="img" aria-label="direction in the camera's frame"></svg>
        </section>
        <section class="panel wide map">
          <h2>Floor map <span class="legend"><i class="truth"></i>true path <i class="raw"></i>fixes <i class="smoothed"></i>tracked
            <i class="a-init"></i>initiator anchors <i class="a-resp"></i>responder anchors <i class="a-rej"></i>rejected in the latest fix</span></h2>
          <svg id="map" role="img" aria-label="floor map"></svg>
          <h2>Fix error <span class="legend"><i class="raw"></i>fix <i class="smoothed"></i>tracked <i class="truth"></i>CRLB (expected RMSE)</span></h2>
          <svg id="fix-error" role="img" aria-label="fix error over time"></svg>
        </section>
        <section class="panel wide">
          <h2>Records <span class="legend">the values of the latest JSON Lines records, newest first</span></h2>
          <div class="table"><table id="records"><thead></thead><tbody></tbody></table></div>
        </section>
        <section class="panel wide">
          <h2>Set-up</h2>
          <pre id="setup">waiting for the set-up…</pre>
          <h2 class="status-lines">Status</h2>
          <pre id="status-lines" class="status-lines"></pre>
        </section>
        <script>
        \(LiveViewPageScript.js)
        </script>
        </body>
        </html>

        """
}
