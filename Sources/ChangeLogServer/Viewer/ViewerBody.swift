extension ViewerPage {
    /// The viewer's markup: the controls, the form that asks for the server's token (hidden
    /// unless needed), the timeline, the list (`#view`, which carries `data-revision`) and the
    /// side panel. The script fills them.
    static let body = #"""
        <header class="bar">
          <h1>List history</h1>
          <span id="source"></span>
          <button id="prev-marker" title="Previous marker (p)">&#x00AB; marker</button>
          <button id="prev" title="Previous revision (left arrow)">&#x25C0;</button>
          <button id="play" title="Play or pause (space)">Play</button>
          <button id="next" title="Next revision (right arrow)">&#x25B6;</button>
          <button id="next-marker" title="Next marker (n)">marker &#x00BB;</button>
          <label>speed <select id="speed">
            <option value="1">1x</option><option value="2">2x</option><option value="4">4x</option><option value="8">8x</option>
          </select></label>
          <label><input type="checkbox" id="skip-empty"> skip empty</label>
          <label id="follow-control"><input type="checkbox" id="follow"> follow</label>
        </header>
        <form id="token-form" hidden>
          <p id="token-message"></p>
          <label>Token <input type="password" id="token-input" autocomplete="off" spellcheck="false"></label>
          <button type="submit">Open</button>
        </form>
        <section class="timeline" id="timeline" aria-label="Timeline">
          <div class="scrubber"><input type="range" id="scrubber" min="1" max="1" value="1" aria-label="Revision"></div>
          <div id="marks"></div>
          <ol id="revisions"></ol>
          <div class="keys">Keys: left and right arrows choose the revision, n and p the next and previous marker
            (moved sections, items moved across sections, deleted sections, failed checks), space plays.</div>
        </section>
        <div id="status"></div>
        <main id="view" data-revision="">
          <div id="list-pane">
            <h2>Revision <span id="revision-number"></span></h2>
            <div id="list"></div>
          </div>
          <aside id="panel">
            <h3>Time</h3><div id="panel-time"></div>
            <h3>Metadata</h3><dl id="panel-meta"></dl>
            <h3>Operations</h3><ul id="panel-operations"></ul>
            <div id="panel-failure"></div>
            <h3>Export</h3>
            <div>revisions <input type="number" id="export-from" style="width:6em"> to
              <input type="number" id="export-to" style="width:6em"></div>
            <div><select id="export-kind">
              <option value="revisions">revision lines (as replay export writes)</option>
              <option value="snapshots">snapshots (as replay import reads)</option>
            </select> <button id="export">Export</button></div>
            <a id="export-link"></a>
          </aside>
        </main>
        """#
}
