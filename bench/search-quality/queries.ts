// Search quality queries over the MCP registry seed (../shared/data/mcp-registry-seed-2025-05-16.json).
//
// Judgments were made by reading the catalog (every name and description, printed by
// `node --import tsx bench/search-quality/print-catalog.ts`), never by running the engine.
// Keys are seed names without the common `io.github.` prefix. Grades:
//   3 = exactly what the query asks for, 2 = serves the need well, 1 = related or partly serves it.
// Entries not listed are 0. Where the seed description is blank or says nothing about it, a grade
// may rest on what the product is (Neon is hosted PostgreSQL, Ragie is a RAG service, ...),
// as a person reading the list would judge.
//
// `split`: 't' = tuning half (looked at while building the engine), 'h' = held-out half (only
// its totals were read). Each kind alternates t, h, t, h, ... in the order written.

export type QueryKind = 'keyword' | 'task' | 'described' | 'misspelling' | 'two-needs' | 'no-match';

export interface JudgedQuery {
  kind: QueryKind;
  split: 't' | 'h';
  text: string;
  /** seed name (without `io.github.`) -> grade 1..3 */
  judgments: Record<string, 1 | 2 | 3>;
  /** two-needs queries: the entries that serve each need best (one of each must be in the top 10) */
  needs?: string[][];
}

const POSTGRES: JudgedQuery['judgments'] = {
  'neondatabase/mcp-server-neon': 3,
  'googleapis/genai-toolbox': 2,
  'xgenerationlab/xiyan_mcp_server': 1,
  'benborla/mcp-server-mysql': 1,
  'designcomputer/mysql_mcp_server': 1,
  'abel9851/mcp-server-mariadb': 1,
  'jexinsam/mssql_mcp_server': 1,
  'yuanooo/oceanbase_mcp_server': 1,
};

const KUBERNETES: JudgedQuery['judgments'] = {
  'flux159/mcp-server-kubernetes': 3,
  'manusa/kubernetes-mcp-server': 3,
  'strowk/mcp-k8s-go': 3,
  'razvanmacovei/k8s-multicluster-mcp': 3,
  'yanmxa/multicluster-mcp-server': 3,
  'ckreiling/mcp-server-docker': 1,
  'kocierik/mcp-nomad': 1,
};

const MONGODB: JudgedQuery['judgments'] = {
  'mongodb-js/mongodb-mcp-server': 3,
  'kiliczsh/mcp-mongo-server': 3,
  'furey/mongodb-lens': 3,
  'couchbase-ecosystem/mcp-server-couchbase': 1,
};

const BIGQUERY: JudgedQuery['judgments'] = {
  'lucashild/mcp-server-bigquery': 3,
  'ergut/mcp-bigquery-server': 3,
  'googleapis/genai-toolbox': 1,
  'lishenxydlgzs/aws-athena-mcp': 1,
  'isaacwasserman/mcp-snowflake-server': 1,
};

const SLACK = { 'korotovsky/slack-mcp-server': 3 } as const;
const DISCORD = { 'v-3/discordmcp': 3, 'saseq/discord-mcp': 3 } as const;
const GOOGLE_CALENDAR = { 'nspady/google-calendar-mcp': 3, 'v-3/google-calendar': 3, 'omar-v2/mcp-ical': 2 } as const;
const NOTION = { 'suekou/mcp-notion-server': 3, 'v-3/notion-server': 3 } as const;
const FIRECRAWL = { 'mendableai/firecrawl-mcp-server': 3, 'vrknetha/mcp-server-firecrawl': 3 } as const;

export const QUERIES: JudgedQuery[] = [
  // ---------------------------------------------------------------- keyword
  { kind: 'keyword', split: 't', text: 'postgres', judgments: POSTGRES },
  { kind: 'keyword', split: 'h', text: 'kubernetes', judgments: KUBERNETES },
  {
    kind: 'keyword',
    split: 't',
    text: 'redis',
    judgments: {
      'redis/mcp-redis': 3,
      'redis/mcp-redis-cloud': 3,
      'gongrzhe/redis-mcp-server': 3,
      'prajwalnayak7/mcp-server-redis': 3,
      'momentohq/mcp-momento': 1,
    },
  },
  {
    kind: 'keyword',
    split: 'h',
    text: 'slack',
    judgments: { ...SLACK, 'inditextech/mcp-teams-server': 1, 'v-3/discordmcp': 1, 'saseq/discord-mcp': 1 },
  },
  {
    kind: 'keyword',
    split: 't',
    text: 'jira',
    judgments: {
      'sooperset/mcp-atlassian': 3,
      'tacticlaunch/mcp-linear': 1,
      'jerhadf/linear-mcp-server': 1,
      'geropl/linear-mcp-go': 1,
      'kelvin6365/plane-mcp-server': 1,
    },
  },
  {
    kind: 'keyword',
    split: 'h',
    text: 'stripe',
    judgments: {
      'stripe/agent-toolkit': 3,
      'atharvagupta2003/mcp-stripe': 3,
      'chargebee/agentkit': 1,
      'paddlehq/paddle-mcp-server': 1,
    },
  },
  {
    kind: 'keyword',
    split: 't',
    text: 'web scraping',
    judgments: {
      ...FIRECRAWL,
      'cyberchitta/scrapling-fetch-mcp': 3,
      'tinyfish-io/agentql-mcp': 2,
      'oxylabs/oxylabs-mcp': 2,
      'xxxbrian/mcp-rquest': 2,
      'apify/actors-mcp-server': 2,
      'apify/mcp-server-rag-web-browser': 2,
      'zcaceres/fetch-mcp': 2,
      'browserbase/mcp-server-browserbase': 1,
      'hyperbrowserai/mcp': 1,
      'mobile-next/mobile-mcp': 1,
      'executeautomation/mcp-playwright': 1,
      'djannot/puppeteer-vision-mcp': 1,
    },
  },
  { kind: 'keyword', split: 'h', text: 'mongodb', judgments: MONGODB },
  {
    kind: 'keyword',
    split: 't',
    text: 'gmail',
    judgments: {
      'gongrzhe/gmail-mcp-server': 3,
      'baryhuang/mcp-headless-gmail': 3,
      'zilongxue/claude-post': 1,
      'shy2593666979/mcp-server-email': 1,
      'elie222/inbox-zero': 1,
      'mailgun/mailgun-mcp-server': 1,
    },
  },
  { kind: 'keyword', split: 'h', text: 'bigquery', judgments: BIGQUERY },
  {
    kind: 'keyword',
    split: 't',
    text: 'figma',
    judgments: { 'glips/figma-context-mcp': 3, 'sonnylazuardi/cursor-talk-to-figma-mcp': 3 },
  },
  {
    kind: 'keyword',
    split: 'h',
    text: 'home assistant',
    judgments: { 'tevonsb/homeassistant-mcp': 3, 'voska/hass-mcp': 3 },
  },

  // ---------------------------------------------------------------- task in a sentence
  { kind: 'task', split: 't', text: 'I need to query my postgres database from my agent', judgments: { ...POSTGRES, 'xgenerationlab/xiyan_mcp_server': 2, 'googleapis/genai-toolbox': 3 } },
  {
    kind: 'task',
    split: 'h',
    text: 'send a message to a slack channel',
    judgments: {
      ...SLACK,
      'inditextech/mcp-teams-server': 1,
      'v-3/discordmcp': 1,
      'saseq/discord-mcp': 1,
      'chaindead/telegram-mcp': 1,
      'lharries/whatsapp-mcp': 1,
    },
  },
  {
    kind: 'task',
    split: 't',
    text: 'I want my agent to browse websites and click buttons',
    judgments: {
      'browserbase/mcp-server-browserbase': 3,
      'co-browser/browser-use-mcp-server': 3,
      'hyperbrowserai/mcp': 3,
      'executeautomation/mcp-playwright': 3,
      'djannot/puppeteer-vision-mcp': 2,
      'apify/mcp-server-rag-web-browser': 1,
      'mendableai/firecrawl-mcp-server': 1,
      'vrknetha/mcp-server-firecrawl': 1,
    },
  },
  {
    kind: 'task',
    split: 'h',
    text: 'run python code in a secure sandbox',
    judgments: {
      'e2b-dev/mcp-server': 3,
      'jamsocket/forevervm': 3,
      'automata-labs-team/code-sandbox-mcp': 3,
      'bazinga012/mcp_code_executor': 3,
      'riza-io/riza-mcp': 2,
      'baryhuang/mcp-server-aws-resources-python': 1,
    },
  },
  {
    kind: 'task',
    split: 't',
    text: 'create and update issues in my project tracker',
    judgments: {
      'tacticlaunch/mcp-linear': 3,
      'jerhadf/linear-mcp-server': 3,
      'geropl/linear-mcp-go': 3,
      'sooperset/mcp-atlassian': 3,
      'oschina/mcp-gitee': 2,
      'kelvin6365/plane-mcp-server': 2,
      'taazkareem/clickup-mcp-server': 2,
      'ddukbg/github-enterprise-mcp': 1,
      'kpsunil97/devrev-mcp-server': 1,
      'kenjihikmatullah/productboard-mcp': 1,
      'sakce/mcp-server-monday': 1,
    },
  },
  {
    kind: 'task',
    split: 'h',
    text: 'search the web for recent news articles',
    judgments: {
      'exa-labs/exa-mcp-server': 3,
      'tavily-ai/tavily-mcp': 3,
      'ramxx/mcp-tavily': 3,
      'ppl-ai/modelcontextprotocol': 3,
      'kagisearch/kagimcp': 3,
      'leehanchung/bing-search-mcp': 3,
      'dappierai/dappier-mcp': 3,
      'adenot/mcp-google-search': 3,
      'ihor-sokoliuk/mcp-searxng': 3,
      'conechoai/openai-websearch-mcp': 3,
      'fatwang2/search1api-mcp': 2,
      'vectorinstitute/mcp-goodnews': 2,
      'nkapila6/mcp-local-rag': 2,
      'kukapay/cryptopanic-mcp-server': 1,
    },
  },
  {
    kind: 'task',
    split: 't',
    text: 'check the status of my CI builds',
    judgments: {
      'circleci-public/mcp-server-circleci': 3,
      'bitrise-io/bitrise-mcp': 3,
      'ko1ynnky/github-actions-mcp-server': 3,
      'vortiago/mcp-azure-devops': 2,
      'shenghaiwang/xcodebuild': 1,
    },
  },
  {
    kind: 'task',
    split: 'h',
    text: 'manage my calendar events and schedule meetings',
    judgments: { ...GOOGLE_CALENDAR, 'omar-v2/mcp-ical': 3, 'prathamesh0901/zoom-mcp-server': 2, 'inditextech/mcp-teams-server': 1 },
  },
  {
    kind: 'task',
    split: 't',
    text: 'edit a video for my youtube channel',
    judgments: {
      'burningion/video-editing-mcp': 3,
      'samuelgursky/davinci-resolve-mcp': 3,
      'zubeidhendricks/youtube-mcp-server': 2,
    },
  },
  {
    kind: 'task',
    split: 'h',
    text: 'analyze my website traffic and uptime',
    judgments: {
      'msgbyte/tianji': 3,
      'metricool/mcp-metricool': 1,
      'grafana/mcp-grafana': 1,
      'dynatrace-oss/dynatrace-mcp': 1,
    },
  },
  {
    kind: 'task',
    split: 't',
    text: 'deploy my static site and get a public url',
    judgments: {
      'tencentedgeone/edgeone-pages-mcp': 3,
      'cloudflare/mcp-server-cloudflare': 2,
      'heroku/heroku-mcp-server': 2,
      'kapilduraphe/webflow-mcp-server': 1,
    },
  },
  {
    kind: 'task',
    split: 'h',
    text: 'track crypto whale transactions on the blockchain',
    judgments: {
      'kukapay/whale-tracker-mcp': 3,
      'kukapay/dune-analytics-mcp': 1,
      'kukapay/thegraph-mcp': 1,
      'bankless/onchain-mcp': 1,
    },
  },

  // ---------------------------------------------------------------- the need described in other words
  {
    kind: 'described',
    split: 't',
    text: 'store and search notes in my second brain',
    judgments: {
      'calclavia/mcp-obsidian': 3,
      'stevenstavrakis/obsidian-mcp': 3,
      'basicmachines-co/basic-memory': 3,
      ...NOTION,
      'rajvirtual/mcp-servers': 3,
      'skydeckai/mcp-server-rememberizer': 2,
      'kiwamizamurai/mcp-kibela-server': 2,
      'vortiago/mcp-outline': 2,
      'mem0ai/mem0-mcp': 1,
      'scorzeth/anki-mcp-server': 1,
      'hiromitsusasaki/raindrop-io-mcp-server': 1,
      'apeyroux/mcp-xmind': 1,
      'yuchenssr/mindmap-mcp-server': 1,
    },
  },
  {
    kind: 'described',
    split: 'h',
    text: 'let my assistant remember things between conversations',
    judgments: {
      'mem0ai/mem0-mcp': 3,
      'topoteretes/cognee': 3,
      'unibaseio/membase-mcp': 3,
      'basicmachines-co/basic-memory': 3,
      'skydeckai/mcp-server-rememberizer': 2,
      'heurist-network/heurist-agent-framework': 1,
      'graphlit/graphlit-mcp-server': 1,
      'fireproof-storage/mcp-database-server': 1,
    },
  },
  {
    kind: 'described',
    split: 't',
    text: 'work with rows and columns in my sheets',
    judgments: {
      'xing5/mcp-google-sheets': 3,
      'rohans2/mcp-google-sheets': 3,
      'haris-musa/excel-mcp-server': 3,
      'domdomegg/airtable-mcp-server': 3,
      'felores/airtable-mcp': 3,
      'lloydzhou/bitable-mcp': 3,
      'kone-net/mcp_server_lark': 2,
      'macrat/mcp-server-kintone': 1,
      'sakce/mcp-server-monday': 1,
    },
  },
  {
    kind: 'described',
    split: 'h',
    text: 'see why my production app is slow and what errors it throws',
    judgments: {
      'mindscapehq/mcp-server-raygun': 3,
      'honeycombio/honeycomb-mcp': 3,
      'geli2001/datadog-mcp-server': 3,
      'dynatrace-oss/dynatrace-mcp': 3,
      'axiomhq/mcp-server-axiom': 2,
      'grafana/mcp-grafana': 2,
      'pydantic/logfire-mcp': 2,
      'metoro-io/metoro-mcp-server': 2,
      'pab1it0/prometheus-mcp-server': 2,
      'arize-ai/phoenix': 1,
      'comet-ml/opik': 1,
      'snagasuri/deebo-prototype': 1,
      'msgbyte/tianji': 1,
    },
  },
  {
    kind: 'described',
    split: 't',
    text: 'control the lights and thermostat at home',
    judgments: { 'tevonsb/homeassistant-mcp': 3, 'voska/hass-mcp': 3, 'diegobit/aranet4-mcp-server': 1 },
  },
  {
    kind: 'described',
    split: 'h',
    text: 'make music tracks with my digital audio workstation',
    judgments: {
      'simon-kansara/ableton-live-mcp-server': 3,
      'ahujasid/ableton-mcp': 3,
      'dschuler36/reaper-mcp-server': 3,
      'varunneal/spotify-mcp': 1,
    },
  },
  {
    kind: 'described',
    split: 't',
    text: 'get a second opinion from a different AI model',
    judgments: {
      'dmontgomery40/deepseek-mcp-server': 3,
      '66julienmartin/mcp-server-deepseek_r1': 3,
      'ruixingshi/deepseek-thinker-mcp': 3,
      '66julienmartin/mcp-server-qwen_max': 3,
      'yuchenssr/multi-ai-advisor-mcp': 3,
      'ai-ql/chat-mcp': 2,
      'deepfates/mcp-replicate': 1,
      'evalstate/mcp-hfspace': 1,
    },
  },
  {
    kind: 'described',
    split: 'h',
    text: 'collect payments and manage subscriptions for my SaaS',
    judgments: {
      'stripe/agent-toolkit': 3,
      'atharvagupta2003/mcp-stripe': 3,
      'chargebee/agentkit': 3,
      'paddlehq/paddle-mcp-server': 3,
      'xeroapi/xero-mcp-server': 1,
      'john-zhang-dev/xero-mcp': 1,
      'ramp-public/ramp-mcp': 1,
    },
  },
  {
    kind: 'described',
    split: 't',
    text: 'manage user sign-in and identity for my app',
    judgments: {
      'christophenglisch/keycloak-model-context-protocol': 3,
      'kapilduraphe/okta-mcp-server': 3,
      'descope-sample-apps/descope-mcp-server': 2,
    },
  },
  {
    kind: 'described',
    split: 'h',
    text: 'find scientific papers to cite',
    judgments: {
      'adityak74/mcp-scholarly': 3,
      'szeider/mcp-dblp': 3,
      'reading-plus-ai/mcp-server-deep-research': 1,
      'sssjiang/pubchem_mcp_server': 1,
      'zzaebok/mcp-wikidata': 1,
    },
  },
  {
    kind: 'described',
    split: 't',
    text: 'create 3d scenes and render them',
    judgments: {
      'ahujasid/blender-mcp': 3,
      'codergamester/mcp-unity': 2,
      'quazaai/unitymcpintegration': 2,
      'coding-solo/godot-mcp': 2,
      'wilsonchenghy/shadertoy-mcp': 2,
    },
  },
  {
    kind: 'described',
    split: 'h',
    text: "answer questions from my company's internal documents",
    judgments: {
      'ragieai/ragie-mcp-server': 3,
      'run-llama/mcp-server-llamacloud': 3,
      'gongrzhe/langflow-doc-qa-server': 3,
      'gleanwork/mcp-server': 3,
      'longyi1207/glean-mcp-server': 3,
      'dmayboroda/minima': 3,
      'needle-ai/needle-mcp': 2,
      'inkeep/mcp-server-python': 2,
      'vectorize-io/vectorize-mcp-server': 2,
      'pinecone-io/assistant-mcp': 2,
      'graphlit/graphlit-mcp-server': 2,
      'ubie-oss/mcp-vertexai-search': 2,
      'skydeckai/mcp-server-rememberizer': 2,
      'vortiago/mcp-outline': 1,
      'nkapila6/mcp-local-rag': 1,
    },
  },

  // ---------------------------------------------------------------- misspelling
  { kind: 'misspelling', split: 't', text: 'postgers', judgments: POSTGRES },
  { kind: 'misspelling', split: 'h', text: 'kubernetse', judgments: KUBERNETES },
  { kind: 'misspelling', split: 't', text: 'mongdb', judgments: MONGODB },
  {
    kind: 'misspelling',
    split: 'h',
    text: 'elasticsaerch',
    judgments: {
      'elastic/mcp-server-elasticsearch': 3,
      'meilisearch/meilisearch-mcp': 1,
      'suhail-ak-s/mcp-typesense-server': 1,
      'vivekkumarneu/mcp-lucene-server': 1,
    },
  },
  {
    kind: 'misspelling',
    split: 't',
    text: 'grafna dashboards',
    judgments: {
      'grafana/mcp-grafana': 3,
      'syucream/lightdash-mcp-server': 1,
      'honeycombio/honeycomb-mcp': 1,
      'comet-ml/opik': 1,
    },
  },
  { kind: 'misspelling', split: 'h', text: 'spotfy', judgments: { 'varunneal/spotify-mcp': 3 } },
  {
    kind: 'misspelling',
    split: 't',
    text: 'obsidain notes',
    judgments: {
      'calclavia/mcp-obsidian': 3,
      'stevenstavrakis/obsidian-mcp': 3,
      'basicmachines-co/basic-memory': 2,
      'suekou/mcp-notion-server': 1,
      'v-3/notion-server': 1,
      'rajvirtual/mcp-servers': 1,
    },
  },
  { kind: 'misspelling', split: 'h', text: 'telegarm bot', judgments: { 'chaindead/telegram-mcp': 3 } },
  {
    kind: 'misspelling',
    split: 't',
    text: 'wheather forecast',
    judgments: { 'mschneider82/mcp-openweather': 3, 'isdaniel/mcp_weather_server': 3, 'dappierai/dappier-mcp': 1 },
  },
  {
    kind: 'misspelling',
    split: 'h',
    text: 'airtabel',
    judgments: { 'domdomegg/airtable-mcp-server': 3, 'felores/airtable-mcp': 3, 'lloydzhou/bitable-mcp': 1 },
  },
  { kind: 'misspelling', split: 't', text: 'shopfiy store', judgments: { 'geli2001/shopify-mcp': 3 } },
  {
    kind: 'misspelling',
    split: 'h',
    text: 'dicsord server',
    judgments: { ...DISCORD, 'ashdevfr/discourse-mcp-server': 1 },
  },

  // ---------------------------------------------------------------- two needs in one query
  {
    kind: 'two-needs',
    split: 't',
    text: 'github issues and slack messages',
    needs: [['ddukbg/github-enterprise-mcp', 'oschina/mcp-gitee'], ['korotovsky/slack-mcp-server']],
    judgments: {
      'ddukbg/github-enterprise-mcp': 3,
      ...SLACK,
      'oschina/mcp-gitee': 2,
      'ko1ynnky/github-actions-mcp-server': 1,
      'tacticlaunch/mcp-linear': 1,
      'jerhadf/linear-mcp-server': 1,
      'sooperset/mcp-atlassian': 1,
      'inditextech/mcp-teams-server': 1,
      'v-3/discordmcp': 1,
      'saseq/discord-mcp': 1,
    },
  },
  {
    kind: 'two-needs',
    split: 'h',
    text: 'send emails and create calendar events',
    needs: [['gongrzhe/gmail-mcp-server', 'baryhuang/mcp-headless-gmail', 'zilongxue/claude-post'], ['nspady/google-calendar-mcp', 'v-3/google-calendar', 'omar-v2/mcp-ical']],
    judgments: {
      'gongrzhe/gmail-mcp-server': 3,
      'baryhuang/mcp-headless-gmail': 3,
      'zilongxue/claude-post': 3,
      'shy2593666979/mcp-server-email': 2,
      'mailgun/mailgun-mcp-server': 2,
      'elie222/inbox-zero': 2,
      ...GOOGLE_CALENDAR,
      'omar-v2/mcp-ical': 3,
    },
  },
  {
    kind: 'two-needs',
    split: 't',
    text: 'query mysql and post the results to discord',
    needs: [['benborla/mcp-server-mysql', 'designcomputer/mysql_mcp_server'], ['v-3/discordmcp', 'saseq/discord-mcp']],
    judgments: {
      'benborla/mcp-server-mysql': 3,
      'designcomputer/mysql_mcp_server': 3,
      'aliyun/alibabacloud-adb-mysql-mcp-server': 2,
      'abel9851/mcp-server-mariadb': 2,
      ...DISCORD,
    },
  },
  {
    kind: 'two-needs',
    split: 'h',
    text: 'kubernetes clusters and prometheus metrics',
    needs: [Object.keys(KUBERNETES).filter((k) => KUBERNETES[k] === 3), ['pab1it0/prometheus-mcp-server']],
    judgments: {
      ...KUBERNETES,
      'pab1it0/prometheus-mcp-server': 3,
      'grafana/mcp-grafana': 2,
      'greptimeteam/greptimedb': 1,
      'geli2001/datadog-mcp-server': 1,
    },
  },
  {
    kind: 'two-needs',
    split: 't',
    text: 'stock market prices and crypto news',
    needs: [['financial-datasets/mcp-server', 'calvernaz/alphavantage'], ['kukapay/cryptopanic-mcp-server']],
    judgments: {
      'financial-datasets/mcp-server': 3,
      'calvernaz/alphavantage': 3,
      'octagonai/octagon-mcp-server': 2,
      'stefanoamorelli/nasdaq-data-link-mcp': 2,
      'kukapay/cryptopanic-mcp-server': 3,
      'kukapay/crypto-sentiment-mcp': 1,
      'longmans/coin_api_mcp': 1,
      'shinzo-labs/coinmarketcap-mcp': 1,
      'morningstar/morningstar-mcp-server': 1,
    },
  },
  {
    kind: 'two-needs',
    split: 'h',
    text: 'scrape a website and save it to notion',
    needs: [Object.keys(FIRECRAWL), Object.keys(NOTION)],
    judgments: {
      ...FIRECRAWL,
      ...NOTION,
      'cyberchitta/scrapling-fetch-mcp': 2,
      'tinyfish-io/agentql-mcp': 2,
      'oxylabs/oxylabs-mcp': 2,
      'apify/actors-mcp-server': 2,
      'zcaceres/fetch-mcp': 2,
    },
  },
  {
    kind: 'two-needs',
    split: 't',
    text: 'spotify playlists and youtube videos',
    needs: [['varunneal/spotify-mcp'], ['zubeidhendricks/youtube-mcp-server']],
    judgments: { 'varunneal/spotify-mcp': 3, 'zubeidhendricks/youtube-mcp-server': 3, 'burningion/video-editing-mcp': 1 },
  },
  {
    kind: 'two-needs',
    split: 'h',
    text: 'convert documents to markdown and make powerpoint slides',
    needs: [['zcaceres/mcp-markdownify-server'], ['gongrzhe/office-powerpoint-mcp-server']],
    judgments: {
      'zcaceres/mcp-markdownify-server': 3,
      'vivekvells/mcp-pandoc': 2,
      'xxxbrian/mcp-rquest': 1,
      'gongrzhe/office-powerpoint-mcp-server': 3,
      'gongrzhe/office-word-mcp-server': 1,
    },
  },
  {
    kind: 'two-needs',
    split: 't',
    text: 'generate images and upload them to cloudinary',
    needs: [['gongrzhe/image-generation-mcp-server'], ['felores/cloudinary-mcp-server']],
    judgments: {
      'gongrzhe/image-generation-mcp-server': 3,
      'felores/placid-mcp-server': 2,
      'deepfates/mcp-replicate': 1,
      'felores/cloudinary-mcp-server': 3,
      'nota/gyazo-mcp-server': 1,
    },
  },
  {
    kind: 'two-needs',
    split: 'h',
    text: 'docker containers and aws s3 buckets',
    needs: [['ckreiling/mcp-server-docker'], ['aws-samples/sample-mcp-server-s3']],
    judgments: {
      'ckreiling/mcp-server-docker': 3,
      'automata-labs-team/code-sandbox-mcp': 1,
      'aws-samples/sample-mcp-server-s3': 3,
      'rishikavikondala/mcp-server-aws': 2,
      'baryhuang/mcp-server-aws-resources-python': 2,
    },
  },
  {
    kind: 'two-needs',
    split: 't',
    text: 'todoist tasks and google calendar',
    needs: [['abhiz123/todoist-mcp-server'], ['nspady/google-calendar-mcp', 'v-3/google-calendar']],
    judgments: {
      'abhiz123/todoist-mcp-server': 3,
      'alexarevalo9/ticktick-mcp-server': 2,
      'zcaceres/gtasks-mcp': 2,
      'taazkareem/clickup-mcp-server': 1,
      ...GOOGLE_CALENDAR,
    },
  },
  {
    kind: 'two-needs',
    split: 'h',
    text: 'whatsapp and telegram chats',
    needs: [['lharries/whatsapp-mcp'], ['chaindead/telegram-mcp']],
    judgments: {
      'lharries/whatsapp-mcp': 3,
      'chaindead/telegram-mcp': 3,
      'carterlasalle/mac_messages_mcp': 1,
      'mcpso/mcp-server-chatsum': 1,
      'amornpan/py-mcp-line': 1,
    },
  },

  // ---------------------------------------------------------------- a need nothing in the catalog serves
  { kind: 'no-match', split: 't', text: 'book a table at a restaurant for dinner', judgments: {} },
  { kind: 'no-match', split: 'h', text: 'order pizza delivery', judgments: {} },
  { kind: 'no-match', split: 't', text: 'find a plumber near me', judgments: {} },
  { kind: 'no-match', split: 'h', text: 'knitting patterns for a wool sweater', judgments: {} },
  { kind: 'no-match', split: 't', text: 'adopt a puppy from an animal shelter', judgments: {} },
  { kind: 'no-match', split: 'h', text: 'gardening tips for growing tomatoes', judgments: {} },
  { kind: 'no-match', split: 't', text: 'wedding dress shopping', judgments: {} },
  { kind: 'no-match', split: 'h', text: 'recipe ideas for a vegan dessert', judgments: {} },
  { kind: 'no-match', split: 't', text: 'car insurance quotes', judgments: {} },
  { kind: 'no-match', split: 'h', text: 'horoscope for my zodiac sign', judgments: {} },
  { kind: 'no-match', split: 't', text: 'learn to play the violin', judgments: {} },
  { kind: 'no-match', split: 'h', text: 'dog grooming salon near me', judgments: {} },
];
