const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * The dev provider's sign-in page: a person types a test identity (digits) and is sent back to the web app
 * with a login code. The form submits to the same endpoint with `kakao_id` added.
 */
export function devAuthorizePage(input: {
  action: string;
  redirectUri: string;
  state: string | undefined;
  error?: string;
}): string {
  const state =
    input.state === undefined ? '' : `<input type="hidden" name="state" value="${escapeHtml(input.state)}">`;
  const error =
    input.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(input.error)}</p>`;
  return `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>개발용 로그인 · 바다학원</title>
<style>
  body { font-family: system-ui, sans-serif; background: #eaf4fb; color: #12324a; margin: 0; }
  main { max-width: 24rem; margin: 12vh auto; background: #fff; border-radius: 12px; padding: 2rem;
    box-shadow: 0 4px 24px rgba(18, 50, 74, 0.12); }
  h1 { font-size: 1.3rem; margin-top: 0; }
  label { display: block; font-weight: 600; margin-bottom: 0.4rem; }
  input[type=text] { box-sizing: border-box; width: 100%; padding: 0.6rem; font-size: 1rem;
    border: 1px solid #9bb8cc; border-radius: 8px; }
  button { margin-top: 1rem; width: 100%; padding: 0.7rem; font-size: 1rem; border: 0; border-radius: 8px;
    background: #1e6fd9; color: #fff; cursor: pointer; }
  .hint { font-size: 0.85rem; color: #4a6a80; }
  .error { color: #b3261e; }
</style>
</head>
<body>
<main>
  <h1>개발용 로그인</h1>
  <p class="hint">카카오 키가 설정되지 않아 개발용 로그인을 사용해요. 테스트 계정 번호를 입력하면 그 계정으로 로그인돼요.</p>
  ${error}
  <form method="get" action="${escapeHtml(input.action)}">
    <input type="hidden" name="redirect_uri" value="${escapeHtml(input.redirectUri)}">
    ${state}
    <label for="kakao_id">테스트 계정 번호 (숫자)</label>
    <input type="text" id="kakao_id" name="kakao_id" inputmode="numeric" pattern="[0-9]{1,19}" maxlength="19"
      required autofocus autocomplete="off" placeholder="예: 1001">
    <button type="submit">로그인</button>
  </form>
</main>
</body>
</html>
`;
}
