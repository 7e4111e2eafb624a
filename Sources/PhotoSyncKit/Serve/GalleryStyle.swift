/// The gallery's one stylesheet, served from `/static/gallery.css` (the CSP allows no inline
/// style). A grid that reflows from a phone to a wide screen, long words wrapped so nothing
/// overflows, dark mode from the system setting, no web fonts.
enum GalleryStyle {
    static let css = """
        :root { color-scheme: light dark; --bg: #fafafa; --fg: #1d1d1f; --muted: #6e6e73; --card: #fff; --line: #d2d2d7; --link: #0a58ca; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #161617; --fg: #f5f5f7; --muted: #a1a1a6; --card: #232325; --line: #3a3a3c; --link: #6ea8fe; }
        }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
        a { color: var(--link); }
        a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
        header, main, footer { max-width: 1400px; margin: 0 auto; padding: 0 16px; }
        header { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; padding-top: 12px; padding-bottom: 12px; border-bottom: 1px solid var(--line); }
        header .home { font-weight: 700; text-decoration: none; color: var(--fg); }
        nav { display: flex; flex-wrap: wrap; gap: 16px; }
        form.search { display: flex; gap: 8px; flex: 1 1 220px; max-width: 420px; }
        form.search input { flex: 1; min-width: 0; padding: 6px 10px; font: inherit; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: var(--fg); }
        form.search button { font: inherit; padding: 6px 12px; border-radius: 6px; border: 1px solid var(--line); background: var(--card); color: var(--fg); }
        h1 { font-size: 1.6rem; margin: 20px 0 12px; overflow-wrap: anywhere; }
        p, li, td, th, dd, dt, figcaption, h2 { overflow-wrap: anywhere; }
        .muted { color: var(--muted); }
        .grid { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(160px, 100%), 1fr)); gap: 16px; }
        .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
        .card a { display: block; text-decoration: none; color: inherit; }
        .thumb { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: var(--line); }
        .placeholder { display: flex; align-items: center; justify-content: center; padding: 8px; text-align: center; color: var(--fg); font-size: .85rem; overflow: hidden; }
        .card .caption { display: block; padding: 8px 10px; font-size: .9rem; overflow-wrap: anywhere; }
        .people { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(min(300px, 100%), 1fr)); gap: 16px; }
        .people .card { padding: 12px; }
        .people h2 { font-size: 1.1rem; margin: 0 0 8px; }
        .strip { display: grid; grid-template-columns: repeat(4, 1fr); gap: 6px; }
        .strip .thumb { border-radius: 4px; }
        .photo img { display: block; max-width: 100%; height: auto; max-height: 80vh; margin: 0 auto; border-radius: 8px; }
        .photo .placeholder { aspect-ratio: 4 / 3; max-width: 640px; background: var(--line); border-radius: 8px; }
        dl.fields { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 4px 16px; }
        dl.fields dt { color: var(--muted); }
        dl.fields dd { margin: 0; }
        table { border-collapse: collapse; width: 100%; display: block; overflow-x: auto; }
        th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); }
        .pager { display: flex; gap: 16px; margin: 24px 0; }
        footer { padding-top: 24px; padding-bottom: 24px; color: var(--muted); font-size: .85rem; }
        """
}
