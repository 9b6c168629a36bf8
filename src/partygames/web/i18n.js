// Every platform string in English and Japanese. Game texts come from the server ({en, ja}) or the
// game's own renderer.

const STRINGS = {
  app_title: ["Party Games", "パーティーゲーム"],
  profile_link: ["My profile", "マイプロフィール"],
  profile_title: ["Your profile", "あなたのプロフィール"],
  profile_colour: ["Colour", "色"],
  profile_visibility: ["Who sees your matches", "対戦履歴の公開範囲"],
  profile_visibility_members: ["Only me (my groups' members, once groups exist)", "自分のみ(グループができればそのメンバー)"],
  profile_visibility_public: ["Everyone", "全員"],
  profile_saved: ["Saved", "保存しました"],
  save: ["Save", "保存"],
  profile_ratings: ["Ratings", "レーティング"],
  profile_rating: ["Rating", "レーティング"],
  profile_rated_matches: ["Rated matches", "対象マッチ"],
  profile_provisional: ["(provisional)", "(暫定)"],
  profile_ratings_note: ["A rating is mu − 3σ (a cautious estimate); provisional below {0} rated matches.",
    "レーティングは μ − 3σ(控えめな推定)。対象マッチが {0} 未満の間は暫定です。"],
  profile_no_ratings: ["No rated matches yet: a match counts once it ends with at least two people.",
    "レーティング対象のマッチはまだありません。2人以上の人で終えたマッチが対象です。"],
  profile_matches: ["Your matches", "あなたの対戦"],
  profile_no_matches: ["No finished matches yet.", "終了したマッチはまだありません。"],
  profile_more_matches: ["Earlier matches", "それ以前の対戦"],
  profile_won: ["won", "勝利"],
  profile_rank: ["place {0}", "{0}位"],
  profile_with: ["with {0}", "対戦相手: {0}"],
  profile_move: ["Use this profile on another device", "別の端末でこのプロフィールを使う"],
  profile_move_note: ["Open the link (or scan the code) on the other device. It works once.",
    "別の端末でリンクを開くか、コードを読み取ってください。1回だけ使えます。"],
  profile_move_make: ["Make a link", "リンクを作る"],
  profile_move_expires: ["The link expires in {0} minutes.", "リンクは{0}分で無効になります。"],
  profile_claiming: ["Moving your profile to this device…", "プロフィールをこの端末に移しています…"],
  leaderboard_title: ["Leaderboard: {0}", "ランキング: {0}"],
  leaderboard_place: ["#", "順位"],
  leaderboard_player: ["Player", "プレイヤー"],
  profile_export: ["Export my data", "データを書き出す"],
  profile_delete: ["Delete my profile", "プロフィールを削除"],
  profile_delete_confirm: ["Delete your profile? Your matches stay, with your seat anonymised.",
    "プロフィールを削除しますか?対戦は残り、あなたの席は匿名になります。"],
  profile_deleted: ["Your profile is deleted. A new one is made on your next visit.",
    "プロフィールを削除しました。次に訪れたとき新しいプロフィールが作られます。"],
  lang_switch: ["日本語", "English"],
  lobby: ["Lobby", "ロビー"],
  games: ["Games", "ゲーム"],
  create_room: ["Create a room", "ルームを作る"],
  create: ["Create", "作成"],
  game: ["Game", "ゲーム"],
  options: ["Options", "オプション"],
  default_is: ["default: {0}", "既定値: {0}"],
  seats: ["Seats", "席数"],
  seat: ["Seat", "席"],
  seat_n: ["Seat {0}", "{0}番席"],
  timed_out: ["{0} ran out of time: the default was played", "{0}は時間切れ: 既定の手が打たれました"],
  no_seat_count: ["No seat count is possible with these options.", "このオプションで可能な席数はありません。"],
  human: ["Human", "人間"],
  bot: ["Bot: {0}", "ボット: {0}"],
  your_name: ["Your name", "あなたの名前"],
  name_placeholder: ["Display name", "表示名"],
  join: ["Join", "参加"],
  join_room: ["Join a room", "ルームに参加"],
  room_code: ["Room code", "ルームコード"],
  spectate: ["Watch", "観戦"],
  table_view: ["Table view", "テーブル表示"],
  scan_to_join: ["Scan to join, or open", "スキャンして参加、または"],
  scan_to_watch: ["Scan to watch, or open", "スキャンして観戦、または"],
  qr_alt: ["QR code of {0}", "{0} のQRコード"],
  open: ["Open", "開く"],
  rooms: ["Rooms", "ルーム一覧"],
  no_rooms: ["No rooms yet.", "まだルームはありません。"],
  refresh: ["Refresh", "更新"],
  status_open: ["waiting", "募集中"],
  status_playing: ["playing", "対戦中"],
  status_over: ["finished", "終了"],
  players: ["players", "人"],
  share_link: ["Share link", "共有リンク"],
  auto_standin: ["A bot stands in for a person who leaves (they get their seat back when they return)",
    "退席した人の席はボットが代わりに打つ(戻れば席に戻れます)"],
  standin_after_label: ["Seconds offline before a bot stands in (at once after a timeout)",
    "ボットが代わるまでのオフライン秒数(時間切れならすぐ)"],
  private_room: ["Private: not listed; people join by code or link", "非公開: 一覧に出さず、コードかリンクで参加"],
  private_badge: ["Private room", "非公開ルーム"],
  copy: ["Copy", "コピー"],
  copied: ["Copied", "コピーしました"],
  copy_by_hand: ["Press Ctrl+C", "Ctrl+Cでコピー"],
  copy_by_touch: ["The link is selected: touch and hold it, then choose Copy", "リンクを選択しました: 長押しして「コピー」を選んでください"],
  share: ["Share", "共有"],
  list_hint: ["Separated by commas: 2, 3, 4", "カンマ区切り: 2, 3, 4"],
  add_item: ["Add", "追加"],
  remove_item: ["Remove", "削除"],
  start: ["Start the match", "対戦開始"],
  fill_bots: ["Fill empty seats with bots", "空席をボットで埋める"],
  bot_kind: ["Bot kind", "ボットの種類"],
  waiting_for_host: ["Waiting for the host to start…", "ホストの開始を待っています…"],
  waiting_players: ["Waiting for players", "プレイヤー待ち"],
  empty_seat: ["(empty)", "(空席)"],
  take_seat: ["Take this seat", "この席に座る"],
  you: ["you", "あなた"],
  host: ["host", "ホスト"],
  spectating: ["You are watching.", "観戦中です。"],
  your_turn: ["Your turn", "あなたの番です"],
  waiting_for: ["Waiting for {0}", "{0} を待っています"],
  may_act: ["You may: {0}", "できること: {0}"],
  live: ["Live: players act whenever they like", "リアルタイム: 各プレイヤーがいつでも行動します"],
  live_you: ["Live: act whenever you like", "リアルタイム: いつでも行動できます"],
  you_may: ["What you may do", "できること"],
  nothing_to_do: ["Nothing to do right now.", "今はすることがありません。"],
  send: ["Send", "送信"],
  submit: ["Submit", "決定"],
  chat: ["Chat", "チャット"],
  chat_placeholder: ["Say something…", "メッセージ…"],
  // A spectator chooses their own name, which may be a player's: it is marked as a spectator's.
  chat_spectator: ["spectator", "観戦者"],
  what_happened: ["What just happened", "直前の出来事"],
  log: ["Log", "ログ"],
  skip: ["Skip", "スキップ"],
  time_left: ["{0} s left", "残り {0} 秒"],
  connected: ["connected", "接続中"],
  connecting: ["connecting…", "接続しています…"],
  disconnected: ["reconnecting…", "再接続しています…"],
  results: ["Results", "結果"],
  rank: ["Rank", "順位"],
  score: ["Score", "得点"],
  winner: ["Winner", "勝者"],
  winner_lost_money: ["but lost money", "本人は損失"],
  holdings: ["Holdings", "所持"],
  termination: ["How it ended", "終了理由"],
  replay: ["Replay", "リプレイ"],
  view_as: ["View as", "視点"],
  public_view: ["Public view", "公開ビュー"],
  full_state: ["Full state", "全状態"],
  step: ["Step {0} / {1}", "ステップ {0} / {1}"],
  first: ["First", "最初"],
  prev: ["Previous", "前へ"],
  next: ["Next", "次へ"],
  last: ["Last", "最後"],
  back_to_lobby: ["Back to the lobby", "ロビーへ戻る"],
  back_to_room: ["Back to the room", "ルームへ戻る"],
  error: ["Error", "エラー"],
  refused: ["Refused: {0}", "却下: {0}"],
  network_error: ["Could not reach the server.", "サーバーに接続できません。"],
  not_found: ["No such room.", "そのルームはありません。"],
  details: ["Details", "詳細"],
  nobody_wins: ["Nobody wins.", "勝者はいません。"],
  tie_all: ["A tie: all {0} players share first place.", "引き分け: {0}人全員が1位です。"],
  tie_two: ["A tie: both players share first place.", "引き分け: 2人とも1位です。"],
  won_by: ["First place: {0}", "1位: {0}"],
  match_over: ["The match is over.", "対戦終了です。"],
  revealing: ["Revealing…", "公開しています…"],
  turn_of: ["Turn: {0}", "手番: {0}"],
  everyone: ["everyone", "全員"],
  seat_of: ["{0}'s seat", "{0} の席"],
  bot_name: ["{0} (bot)", "{0}(ボット)"],
  bot_named: ["Bot {0} ({1})", "ボット {0}({1})"],
  bot_short: ["Bot {0}", "ボット {0}"],
  min_max: ["{0} – {1}", "{0} – {1}"],
  step_of: ["steps of {0}", "{0} 刻み"],
  event_generic: ["{0}", "{0}"],
  no_events: ["Nothing yet.", "まだ何もありません。"],
  summary: ["Summary", "概要"],
  outline_seats: ["{0} seats: {1} for people, {2} bots", "{0}席: 人間{1}・ボット{2}"],
  outline_seats_one_bot: ["{0} seats: {1} for people, 1 bot", "{0}席: 人間{1}・ボット1"],
  about_minutes: ["about {0} min", "約{0}分"],
  about_hours: ["about {0} h", "約{0}時間"],
  about_hours_minutes: ["about {0} h {1} min", "約{0}時間{1}分"],
  follows_seats: ["follows the seat count", "席数から決まります"],
  rules_preset: ["Rules", "ルール"],
  preset_standard: ["Standard", "標準"],
  preset_standard_note: ["A match for an evening", "一晩で遊べる長さ"],
  preset_custom: ["Custom", "カスタム"],
  how_to_play: ["How to play", "遊び方"],
  join_as_player: ["Join as a player", "プレイヤーとして参加"],
  game_view: ["Board", "盤面"],
  you_are: ["You are {0}", "あなたは {0}"],
  version: ["version {0}", "バージョン {0}"],
  none: ["none", "なし"],
  yes: ["yes", "はい"],
  no: ["no", "いいえ"],
  seq_exactly: ["exactly {0}", "{0} 個"],
  seq_range: ["{0} to {1}", "{0}〜{1} 個"],
  seq_up_to: ["up to {0}", "{0} 個まで"],
  seq_hint: ["pick {0}, in order", "順に {0}選んでください"],
  seq_order: ["Your order", "あなたの順番"],
  seq_empty: ["nothing picked yet", "まだ選んでいません"],
  seq_picked: ["{0} picked", "{0} 個選択中"],
  seq_add: ["Add {0} as number {1}", "{0} を {1} 番目に追加"],
  seq_placed: ["{0}: number {1}", "{0}: {1} 番目"],
  seq_remove: ["Remove {0}", "{0} を外す"],
  seq_undo: ["Undo last", "1 つ戻す"],
  seq_clear: ["Clear", "すべて外す"],
  not_together: ["These values do not go together: change one.", "この組み合わせはできません。どれかを変えてください。"],
  invalid_number: ["Enter a number from {0} to {1} in steps of {2}.", "{0}〜{1} の範囲で {2} 刻みの数を入力してください。"],
  loading: ["Loading…", "読み込み中…"],
  by_bot: ["bot", "ボット"],
  by_timer: ["time limit", "時間切れ"],
  replay_time_passed: ["Time passed: what was due happened (a time limit's defaults, ...)", "時間経過:期限の来たことが起きました(制限時間切れの既定の操作など)"],
  replay_unavailable: ["The replay is available once the match is over.", "リプレイは対戦終了後に見られます。"],
  chat_public: ["everyone", "全員"],
  chat_private: ["only {0}", "{0}とだけ"],
  play_again: ["Play again", "もう一度遊ぶ"],
  autoplay: ["Play", "自動再生"],
  pause: ["Pause", "一時停止"],
  speed: ["Speed", "速さ"],
  next_game: ["Next: {0}", "次へ: {0}"],
  public_events: ["public", "公開"],
  channel: ["To", "宛先"],
  // Who is at the table (presence.js): each person online, away (the page hidden) or offline since when.
  at_table: ["At the table", "卓の様子"],
  presence_online: ["online", "オンライン"],
  presence_away: ["away", "離席中"],
  presence_offline: ["offline", "オフライン"],
  presence_online_count: ["{0} online", "オンライン {0}人"],
  presence_offline_for: ["offline {0}", "オフライン {0}"],
  absent_note: ["{0} ({1})", "{0}({1})"],
  standin_for: ["A bot stands in for {0}", "ボットが{0}の代わりに打っています"],
  standin_short: ["bot stands in", "ボットが代打ち"],
  // The feed (every screen's log): a bot takes a seat over while its person is away, and the person is back.
  stood_in: ["A bot ({1}) takes over {0}'s seat while they are away", "{0}が離れている間、ボット({1})が代わりに打ちます"],
  came_back: ["{0} is back and plays again", "{0}が戻り、また自分で打ちます"],
  // A step a stand-in played, in the feed, the stage and the replay: the bot's, not the person's.
  by_standin: ["stand-in {0} for {1}", "{1}の代打ち {0}"],
  // A series' next game lacks a bot kind (the Pandemic Game's Cautious in Musical Chairs): said, not silent.
  bots_replaced: ["{0} played {1} in {2}, which {3} has not: it plays {4} now.",
    "{0}は{2}で{1}でしたが、{3}にはないため{4}で打ちます。"],
  ran_out: ["ran out of time", "時間切れ"],
  hand_to_bot: ["Hand to a bot", "ボットに任せる"],
  hand_to_bot_title: ["A {0} bot plays this seat until its player comes back", "本人が戻るまで{0}ボットがこの席を打ちます"],
  take_back: ["Take back", "本人に戻す"],
  take_back_title: ["The seat waits for its player again", "この席は再び本人を待ちます"],
  room_closed: ["This room was closed: nobody was at the table for a long time.", "このルームは閉じられました。長い間だれもいなかったためです。"],
  status_closed: ["closed", "閉鎖"],
};

let lang = (navigator.language || "en").startsWith("ja") ? "ja" : "en";
const stored = localStorage.getItem("pg.lang");
if (stored === "en" || stored === "ja") lang = stored;
const params = new URLSearchParams(location.search);
if (params.get("lang") === "en" || params.get("lang") === "ja") lang = params.get("lang");

const listeners = new Set();

export function getLang() {
  return lang;
}

export function setLang(next) {
  lang = next === "ja" ? "ja" : "en";
  localStorage.setItem("pg.lang", lang);
  document.documentElement.lang = lang;
  for (const fn of listeners) fn(lang);
}

export function onLang(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The platform string `key` in the current language, with {0}, {1}… filled from `args`. */
export function t(key, ...args) {
  const pair = STRINGS[key];
  let text = pair ? pair[lang === "ja" ? 1 : 0] : key;
  args.forEach((arg, i) => {
    text = text.replaceAll(`{${i}}`, String(arg));
  });
  return text;
}

/** Picks the current language from a bilingual value: {en, ja}, an error {en, ja}, or a plain string. */
export function tr(value) {
  if (value == null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "object") return value[lang] ?? value.en ?? value.ja ?? "";
  return String(value);
}

/** Keys whose English or Japanese text is missing (a test keeps this empty). */
export function untranslated() {
  return Object.entries(STRINGS)
    .filter(([, pair]) => !Array.isArray(pair) || pair.length !== 2 || !pair[0] || !pair[1])
    .map(([key]) => key);
}
