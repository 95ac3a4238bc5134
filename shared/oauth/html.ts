/** Minimal server-rendered HTML for the install pages: one layout, escaped interpolation. Knows nothing of HTTP (the headers a page is sent with are in shared/http/serialize.ts). */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function renderLayout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f5f8fa;color:#33475b;margin:0}
main{max-width:32rem;margin:4rem auto;background:#fff;border:1px solid #cbd6e2;border-radius:8px;padding:2rem}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .3rem;font-weight:600}
input,select{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #cbd6e2;border-radius:4px;font-size:1rem}
button{margin-top:1.2rem;padding:.6rem 1.2rem;border-radius:4px;border:1px solid #ff7a59;background:#ff7a59;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#fff;color:#ff7a59}.error{color:#d9534f;font-weight:600}
pre,code{background:#eaf0f6;padding:.2rem .4rem;border-radius:4px;white-space:pre-wrap;word-break:break-all}
h2{font-size:1rem;margin:1.2rem 0 .4rem}ul.scopes{padding-left:1.2rem}ul.scopes li{margin:.4rem 0}ul.scopes code{font-size:.75rem;color:#516f90;white-space:nowrap;word-break:normal}
</style>
</head>
<body><main>
${content}
</main></body>
</html>`;
}

export function renderErrorPage(title: string, message: string): string {
  return renderLayout(title, `<h1>${escapeHtml(title)}</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`);
}
