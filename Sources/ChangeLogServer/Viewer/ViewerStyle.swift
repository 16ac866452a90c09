extension ViewerPage {
    /// The viewer's style sheet: a timeline across the top, the list and the side panel below,
    /// with the highlights of inserted, moved, updated and deleted rows.
    static let style = #"""
        :root { --ink: #1d2430; --muted: #667085; --line: #d9dee7; --paper: #ffffff; --wash: #f5f7fa;
                --inserted: #dff5e3; --moved: #e2ecff; --updated: #fff3cc; --deleted: #fde2e1; --fail: #d92d20; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink);
               background: var(--wash); }
        header.bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 8px 16px;
                     background: var(--paper); border-bottom: 1px solid var(--line); }
        header.bar h1 { font-size: 16px; margin: 0 12px 0 0; }
        #source { color: var(--muted); margin-right: auto; }
        button, select, input[type=number] { font: inherit; padding: 2px 8px; }
        .timeline { padding: 8px 16px; background: var(--paper); border-bottom: 1px solid var(--line); }
        .scrubber { position: relative; }
        #scrubber { width: 100%; margin: 0; }
        #marks { position: relative; height: 10px; }
        .tick { position: absolute; top: 0; width: 2px; height: 10px; background: #7a5af8; }
        .tick.failed { background: var(--fail); width: 3px; }
        #revisions { position: relative; list-style: none; margin: 6px 0 0; padding: 0; max-height: 150px; overflow-y: auto;
                     font: 12px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; }
        #revisions li { display: flex; gap: 10px; padding: 1px 6px; cursor: pointer; white-space: nowrap; }
        #revisions li.more { color: var(--muted); }
        #revisions li.chosen { background: #e8e3ff; }
        #revisions li.empty { color: var(--muted); }
        #revisions .number { min-width: 4em; text-align: right; font-weight: 600; }
        #revisions .meta { color: var(--muted); overflow: hidden; text-overflow: ellipsis; }
        .marker { border-radius: 3px; padding: 0 4px; background: #ece7ff; color: #4e2fd0; }
        .marker.failed { background: var(--fail); color: white; }
        #revisions li.failed .number { color: var(--fail); }
        main { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); gap: 16px; padding: 16px; }
        #list-pane h2 { margin: 0 0 8px; font-size: 15px; }
        section.section { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; margin-bottom: 10px; }
        .section-header { display: flex; gap: 10px; align-items: baseline; margin: 0; padding: 6px 10px; font-size: 14px;
                          border-bottom: 1px solid var(--line); }
        .section-header .summary, .section-header .count { color: var(--muted); font-weight: normal; }
        .section-header .count { margin-left: auto; }
        ol.items { list-style: none; margin: 0; padding: 0; }
        li.item { display: flex; gap: 10px; align-items: baseline; padding: 3px 10px; border-top: 1px solid var(--wash); }
        li.item .id { color: var(--muted); min-width: 6em; }
        .badge { margin-left: auto; font-size: 11px; border-radius: 3px; padding: 0 4px; color: var(--muted); }
        .badge + .badge { margin-left: 0; }
        .inserted { background: var(--inserted); }
        .moved { background: var(--moved); }
        .updated { background: var(--updated); }
        section.inserted, section.moved, section.updated { background: var(--paper); }
        section.inserted > .section-header { background: var(--inserted); }
        section.moved > .section-header { background: var(--moved); }
        section.updated > .section-header { background: var(--updated); }
        .deleted, section.deleted { background: var(--deleted); text-decoration: line-through; color: #912018; }
        li.item.inserted, li.item.moved, li.item.updated, section.inserted, section.moved { animation: arrive 0.6s ease-out; }
        @keyframes arrive { from { box-shadow: inset 6px 0 0 #7a5af8; } to { box-shadow: inset 0 0 0 #7a5af8; } }
        aside#panel { background: var(--paper); border: 1px solid var(--line); border-radius: 6px; padding: 10px 14px;
                      align-self: start; }
        aside#panel h3 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); text-transform: uppercase; }
        .meta-row { display: flex; gap: 8px; }
        .meta-row dt { font-weight: 600; }
        .meta-row dd { margin: 0; word-break: break-all; }
        #panel-operations { margin: 0; padding-left: 18px; }
        .none { color: var(--muted); list-style: none; }
        #panel-failure { color: var(--fail); font-weight: 600; }
        #status { padding: 4px 16px; color: var(--muted); min-height: 1.4em; }
        #status.error { color: var(--fail); }
        .keys { color: var(--muted); font-size: 12px; }
        #token-form { margin: 24px auto; max-width: 480px; padding: 16px; background: var(--paper);
                      border: 1px solid var(--line); border-radius: 6px; }
        #token-form.refused #token-message { color: var(--fail); font-weight: 600; }
        #token-form input { font: inherit; padding: 2px 8px; width: 18em; }
        [hidden] { display: none !important; }
        """#
}
