// How the classroom page reaches the machine: here `matchbox serve`'s JSON API over
// HTTP. (The static site's lesson has a transport of its own, answered by the engine
// in the browser.) Both keep the contract page.js writes down (`TRANSPORT`), which
// app.js checks when it starts.

export const transport = (() => {
  // The teacher's token: read from the address once, then kept for this tab only and
  // taken out of the address bar, so the projected screen does not show it.
  const token = (() => {
    const params = new URLSearchParams(location.search);
    const given = params.get('token');
    if (given) {
      sessionStorage.setItem('matchbox-token', given);
      params.delete('token');
      const rest = params.toString();
      history.replaceState(null, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
    }
    return sessionStorage.getItem('matchbox-token') || '';
  })();

  async function api(method, path, body) {
    const headers = {};
    if (token) headers['x-matchbox-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(path, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    let data = null;
    try { data = await response.json(); } catch (e) { data = { error: String(response.status) }; }
    if (!response.ok) throw Object.assign(new Error(data.error || String(response.status)), { refused: true, field: data.field });
    return data;
  }

  // Only the teacher's tab changes anything; the others follow it. No answer means the
  // server is gone.
  return { teacher: token !== '', api, noAnswer: 'page.offline' };
})();
