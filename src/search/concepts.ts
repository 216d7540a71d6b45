// The field's vocabulary: hand-made concepts for what agents and MCP servers do.
//
// Each concept has `same` words (synonyms, abbreviations, spellings: a query word among them
// expands to the concept at a high weight), `rel` words (products and words strongly tied to the
// concept: expansion at a lower weight) and `up` parents (broader concepts). A document that
// contains any same or rel word (or phrase) carries the concept and all its ancestors as hidden
// terms, computed once at index time; a query word reaches the concepts it belongs to (and, at a
// decaying weight, their ancestors) with a single term lookup each. Words are matched after
// stemming, phrases word by word. Written for the domain as a whole, not for any list of queries.

export interface ConceptDef {
  id: string;
  up?: string[];
  /** comma-separated words or phrases that name the concept */
  same: string;
  /** comma-separated products and words strongly tied to it */
  rel?: string;
}

export const CONCEPTS: ConceptDef[] = [
  // ---------------------------------------------------------------- data stores
  { id: 'database', same: 'database, databases, db, dbs, dbms, datastore, data store, data stores' },
  { id: 'sql', up: ['database'], same: 'sql, relational database, rdbms, sql database, sql databases, sql queries' },
  {
    id: 'postgres',
    up: ['sql'],
    same: 'postgres, postgresql, psql, pgsql',
    rel: 'neon, neondatabase, supabase, timescale, timescaledb, pgvector, cockroachdb, alloydb, crunchy',
  },
  { id: 'mysql', up: ['sql'], same: 'mysql', rel: 'mariadb, planetscale, tidb, vitess, percona, adb mysql' },
  { id: 'sqlserver', up: ['sql'], same: 'mssql, sql server, sqlserver, tsql, t-sql', rel: 'azure sql' },
  { id: 'sqlite', up: ['sql'], same: 'sqlite, sqlite3', rel: 'libsql, turso' },
  {
    id: 'warehouse',
    up: ['sql'],
    same: 'data warehouse, data warehouses, warehouse, olap, analytical database, lakehouse, data lake',
    rel: 'bigquery, snowflake, redshift, clickhouse, databricks, duckdb, motherduck, teradata, athena, hologres, analyticdb, tinybird, singlestore, synapse, azure data explorer, kusto, trino, presto, starrocks, doris',
  },
  {
    id: 'nosql',
    up: ['database'],
    same: 'nosql, document database, document databases, document store, json documents',
    rel: 'mongodb, mongo, couchbase, couchdb, dynamodb, firestore, cosmosdb, cassandra, fireproof, arangodb, astra db, ravendb',
  },
  { id: 'mongodb', up: ['nosql'], same: 'mongodb, mongo, mongodb atlas, mongosh' },
  {
    id: 'keyvalue',
    up: ['database'],
    same: 'key-value, key value, kv, cache, caching, in-memory store, key value store',
    rel: 'redis, memcached, valkey, momento, dragonfly, memorydb, etcd',
  },
  { id: 'redis', up: ['keyvalue'], same: 'redis, valkey, redis cloud' },
  {
    id: 'graphdb',
    up: ['database'],
    same: 'graph database, graph databases, graphdb, cypher, knowledge graph, knowledge graphs',
    rel: 'neo4j, memgraph, arangodb, neptune, dgraph, falkordb',
  },
  {
    id: 'vectordb',
    up: ['database'],
    same: 'vector database, vector databases, vector db, vector store, vector stores, vector search, embeddings, embedding, similarity search, semantic search',
    rel: 'pinecone, qdrant, milvus, chroma, chromadb, weaviate, pgvector, lancedb, vectorize, astra db, zilliz, vespa',
  },
  {
    id: 'timeseries',
    up: ['database'],
    same: 'time series, timeseries, time-series, tsdb',
    rel: 'influxdb, influx, iotdb, greptimedb, greptime, timescale, questdb, prometheus',
  },
  {
    id: 'search-engine',
    same: 'search engine, full-text search, full text search, fulltext, search index, search indexes, inverted index',
    rel: 'elasticsearch, elastic, opensearch, meilisearch, typesense, algolia, lucene, solr, vespa',
  },
  {
    id: 'spreadsheet',
    same: 'spreadsheet, spreadsheets, sheet, sheets, workbook, workbooks, xlsx, xls',
    rel: 'excel, google sheets, airtable, bitable, smartsheet, rows, columns, cells, cell, row, column, bases',
  },
  {
    id: 'etl',
    same: 'etl, elt, data pipeline, data pipelines, data integration, data orchestration, workflow orchestration, dag, dags',
    rel: 'airflow, prefect, dagster, keboola, dbt, fivetran, airbyte, zenml, kafka',
  },
  {
    id: 'data-catalog',
    same: 'data catalog, metadata catalog, data governance, data lineage, lineage, data discovery',
    rel: 'atlan, gravitino, unity catalog, unitycatalog, datahub, amundsen, collibra',
  },
  { id: 'message-queue', same: 'message queue, message queues, message broker, pub/sub, pubsub, event streaming, queue, queues', rel: 'rabbitmq, kafka, sqs, nats, amqp, mqtt' },

  // ---------------------------------------------------------------- software development
  {
    id: 'repository',
    same: 'repository, repositories, repo, repos, git, version control, vcs, source control, source code hosting',
    rel: 'github, gitlab, gitee, bitbucket, commit, commits, branch, branches, codebase, git blame, blame, commit history, diff, diffs',
  },
  { id: 'github', up: ['repository'], same: 'github, gh, github.com, github enterprise', rel: 'github actions, octokit' },
  { id: 'gitlab', up: ['repository'], same: 'gitlab' },
  { id: 'pull-request', up: ['repository'], same: 'pull request, pull requests, pr, prs, merge request, merge requests, code review, code reviews' },
  {
    id: 'issues',
    same: 'issue, issues, ticket, tickets, bug, bugs, bug tracker, issue tracker, issue tracking, bug tracking',
    rel: 'jira, linear, youtrack, plane, devrev, github issues, gitee',
  },
  {
    id: 'project-management',
    same: 'project management, project tracker, project tracking, task management, task tracker, kanban, sprint, sprints, backlog, roadmap, roadmaps, boards',
    rel: 'jira, linear, asana, trello, clickup, monday, monday.com, plane, productboard, basecamp, fibery, wrike, holaspirit',
  },
  {
    id: 'todo',
    same: 'todo, todos, to-do, to-dos, to do list, todo list, task list, task lists, reminders, reminder, tasks, checklist',
    rel: 'todoist, ticktick, google tasks, gtasks, things, microsoft to do, omnifocus',
  },
  {
    id: 'ci',
    same: 'ci, ci/cd, cicd, continuous integration, continuous delivery, continuous deployment, build pipeline, build pipelines, pipeline runs, build status, ci builds, build operations',
    rel: 'circleci, github actions, jenkins, bitrise, travis, buildkite, azure devops, gitlab ci, teamcity, argo, workflow runs',
  },
  {
    id: 'hosting',
    same: 'hosting, host, deploy, deploys, deploying, deployment, deployments, static site, static sites, web hosting, publish website, rollback, rollbacks, roll back, release, releases',
    rel: 'heroku, vercel, netlify, cloudflare, cloudflare pages, fly.io, render.com, edgeone, edgeone pages, github pages, railway, public url',
  },
  {
    id: 'cloud',
    same: 'cloud, cloud provider, cloud providers, cloud resources, cloud infrastructure, public cloud',
    rel: 'aws, azure, gcp, google cloud, alibaba cloud, aliyun, alibabacloud, digitalocean, ibm cloud, oracle cloud, tencent cloud, volcengine',
  },
  {
    id: 'aws',
    up: ['cloud'],
    same: 'aws, amazon web services',
    rel: 's3, lambda, ec2, athena, boto3, cloudwatch, dynamodb, bedrock, cloudformation, iam, memorydb, cost explorer',
  },
  { id: 'azure', up: ['cloud'], same: 'azure, microsoft azure', rel: 'azure devops, cosmosdb, azure data explorer, kusto, entra' },
  { id: 'gcp', up: ['cloud'], same: 'gcp, google cloud, google cloud platform', rel: 'bigquery, vertex, vertex ai, firebase, cloud run, gcs, gke' },
  {
    id: 'object-storage',
    same: 'object storage, blob storage, file storage, cloud storage, bucket, buckets, file sharing, file hosting',
    rel: 's3, gcs, r2, minio, box, dropbox, google drive, onedrive, cloudinary, tos, oss, sharepoint',
  },
  { id: 'containers', same: 'container, containers, containerization, docker, dockerfile, podman, docker compose, containerd' },
  {
    id: 'kubernetes',
    up: ['containers'],
    same: 'kubernetes, k8s, kube, kubectl, kubeconfig',
    rel: 'openshift, helm, eks, gke, aks, multicluster, multi-cluster, pods, pod',
  },
  { id: 'iac', same: 'infrastructure as code, iac, infrastructure', rel: 'terraform, pulumi, cloudformation, ansible, opentofu, cdk, nomad, consul' },
  {
    id: 'observability',
    same: 'observability, monitoring, monitor, monitors, apm, telemetry, o11y, application monitoring, application performance monitoring',
    rel: 'datadog, dynatrace, new relic, newrelic, honeycomb, grafana, prometheus, axiom, logfire, metoro, sentry, raygun, splunk, opentelemetry, otel, alerts, alerting, dashboards, incident, incidents, production, on-call, oncall, pagerduty',
  },
  {
    id: 'errors',
    up: ['observability'],
    same: 'error tracking, error monitoring, crash reporting, exception, exceptions, errors, error, crash, crashes, crashing, crashed, stack trace, stack traces, throws, failures',
    rel: 'sentry, raygun, bugsnag, rollbar, honeybadger, crashlytics',
  },
  { id: 'logs', up: ['observability'], same: 'logs, logging, log management, log search, log analytics', rel: 'axiom, loki, papertrail, splunk, logfire, elastic, kibana' },
  { id: 'metrics', up: ['observability'], same: 'metrics, metric, promql, statsd', rel: 'prometheus, grafana, influxdb, datadog, greptimedb' },
  { id: 'tracing', up: ['observability'], same: 'tracing, traces, trace, distributed tracing, spans, opentelemetry, otel', rel: 'jaeger, honeycomb, zipkin, tempo' },
  {
    id: 'performance',
    up: ['observability'],
    same: 'performance, latency, slow, slowness, slowdown, response time, response times, bottleneck, bottlenecks, profiling, profiler',
    rel: 'load testing, apm',
  },
  {
    id: 'uptime',
    up: ['observability'],
    same: 'uptime, downtime, status page, availability, health check, health checks, outage, outages',
    rel: 'uptime monitor, pingdom, statuspage, tianji',
  },
  {
    id: 'llm-observability',
    up: ['observability'],
    same: 'llm observability, llm evaluation, evals, eval, evaluation, evaluations, prompt management, llm tracing, llmops',
    rel: 'langfuse, opik, phoenix, arize, langsmith, helicone, comet',
  },
  {
    id: 'security',
    same: 'security, vulnerability, vulnerabilities, vulnerability scanning, cve, cves, sast, appsec, secure code, code scanning, security scanning',
    rel: 'snyk, semgrep, codacy, sonarqube, trivy, dependabot',
  },
  {
    id: 'threat-intel',
    up: ['security'],
    same: 'threat intelligence, threat intel, malware, ioc, iocs, cybersecurity, cyber security, threat hunting',
    rel: 'malwarebazaar, malware bazaar, opencti, virustotal, shodan, misp',
  },
  {
    id: 'sandbox',
    same: 'sandbox, sandboxes, sandboxed, sandboxing, code execution, execute code, run code, running code, code interpreter, interpreter, repl, code runner, executor',
    rel: 'e2b, forevervm, riza, jupyter, pyodide, conda, isolated environment, secure execution',
  },
  {
    id: 'terminal',
    same: 'terminal, terminals, shell, command line, command-line, cli, bash, zsh, powershell, console, cmd, shell commands, terminal commands',
    rel: 'iterm, iterm2, tmux, ssh, win-cli',
  },
  { id: 'filesystem', same: 'filesystem, file system, filesystems, file systems, local files, directory, directories, folder, folders, fs', rel: 'files, file' },
  {
    id: 'browser',
    up: ['web'],
    same: 'browser automation, headless browser, browser, browsers, browse, browsing, web automation, web browser',
    rel: 'playwright, puppeteer, selenium, browserbase, hyperbrowser, stagehand, browser use, browser-use, chromium, chrome, click, clicks, clicking, button, buttons, form, forms, fill forms, navigate, navigation, webpage, webpages, web pages, screenshot, screenshots, screen capture',
  },
  {
    id: 'scraping',
    up: ['web'],
    same: 'scrape, scraping, scraper, scrapers, crawl, crawler, crawlers, crawling, web data extraction, data extraction, extract data, web extraction',
    rel: 'firecrawl, apify, oxylabs, scrapling, brightdata, bright data, agentql, crawl4ai, jina, anti-bot, bot-protected',
  },
  {
    id: 'web-search',
    up: ['web'],
    same: 'web search, websearch, internet search, search the web, google search, serp, search api, search engine results, online search',
    rel: 'exa, tavily, perplexity, kagi, bing, brave search, searxng, serper, serpapi, duckduckgo, dappier, search1api, you.com',
  },
  { id: 'web', same: 'web, website, websites, internet, online, webpage, webpages, web page, web pages, site, sites, url, urls' },
  { id: 'news', same: 'news, headlines, articles, article, press, newsfeed, news feed', rel: 'newsapi, cryptopanic, goodnews, rss, feeds' },
  {
    id: 'api-spec',
    same: 'openapi, swagger, api spec, api specs, api specification, api specifications, openapi spec, rest api, rest apis, api endpoints',
    rel: 'apimatic, postman, newman, fastapi, graphql, openrpc, json-rpc',
  },
  { id: 'graphql', same: 'graphql', rel: 'apollo, hasura' },
  {
    id: 'ide',
    same: 'ide, ides, code editor, code editors, editor, editors',
    rel: 'vscode, vs code, cursor, windsurf, cline, jetbrains, intellij, pycharm, webstorm, neovim, vim, emacs, zed, xcode, android studio, codemirror',
  },
  { id: 'debugger', same: 'debugger, debuggers, debugging, debug, breakpoint, breakpoints, debugs', rel: 'lldb, gdb, deebo' },
  { id: 'lsp', same: 'language server, language servers, lsp, language server protocol' },
  {
    id: 'codebase',
    same: 'codebase, codebases, code base, source code, code context, code search, code navigation, code intelligence, code understanding',
    rel: 'llm-context, lsp, language server, dependency graph, code analysis, jetbrains, codelogic',
  },
  {
    id: 'testing',
    same: 'testing, test automation, e2e, end-to-end, end to end, load testing, performance testing, unit tests, qa',
    rel: 'jmeter, playwright, selenium, cypress, k6, postman, newman',
  },
  {
    id: 'mobile',
    same: 'mobile, ios, android, iphone, ipad, simulator, simulators, emulator, emulators, mobile app, mobile apps',
    rel: 'adb, xcode, idb, appium, xcodebuild',
  },
  { id: 'gamedev', same: 'game engine, game engines, game development, gamedev, game dev, game editor', rel: 'unity, godot, unreal, unreal engine, unity editor' },
  {
    id: '3d',
    same: '3d, 3d modeling, 3d modelling, 3d model, 3d models, 3d scene, 3d scenes, render, rendering, renders, 3d graphics',
    rel: 'blender, unity, godot, threejs, three.js, shader, shaders, shadertoy, glsl',
  },
  { id: 'electronics', same: 'pcb, circuit, circuits, electronics, schematic, schematics, eda, cad', rel: 'kicad, arduino, esp32' },
  {
    id: 'iot',
    same: 'iot, internet of things, sensor, sensors, embedded, robotics, robot, robots, microcontroller, hardware device, devices',
    rel: 'arduino, esp32, raspberry pi, nodemcu, aranet4, mqtt',
  },
  {
    id: 'smart-home',
    up: ['iot'],
    same: 'smart home, home automation, home assistant, homeassistant, hass, lights, light bulbs, lighting, thermostat, thermostats, smart devices, smart plug, smart plugs',
    rel: 'hue, philips hue, zigbee, z-wave, matter, homekit, nest, openhab',
  },
  { id: 'network', same: 'router, routers, networking, firewall, firewalls, vlan, wifi', rel: 'mikrotik, routeros, cisco, ubiquiti, unifi' },
  { id: 'dns', same: 'dns, domain, domains, domain name, domain names, whois, registrar', rel: 'rdap' },

  // ---------------------------------------------------------------- communication
  {
    id: 'chat',
    same: 'chat, chats, chatting, messaging, messages, message, instant messaging, instant messages, dm, dms, direct message, direct messages',
    rel: 'slack, discord, microsoft teams, telegram, whatsapp, imessage, signal, line messenger, wechat, lark, feishu, mattermost, zulip, rocket.chat, messenger, conversations, channel, channels'
  },
  { id: 'slack', up: ['chat'], same: 'slack, slack workspace, slack channel, slack channels' },
  { id: 'discord', up: ['chat'], same: 'discord, discord server, discord bot' },
  { id: 'telegram', up: ['chat'], same: 'telegram, telegram bot' },
  { id: 'teams', up: ['chat'], same: 'microsoft teams, ms teams, msteams' },
  {
    id: 'email',
    same: 'email, emails, e-mail, e-mails, mail, mails, inbox, inboxes, mailbox, mailboxes, smtp, imap, newsletter, newsletters',
    rel: 'gmail, outlook, mailgun, sendgrid, postmark, resend, mailchimp, inbox zero, protonmail',
  },
  { id: 'gmail', up: ['email'], same: 'gmail, google mail, gmails' },
  {
    id: 'calendar',
    same: 'calendar, calendars, scheduling, schedule, schedules, appointment, appointments, agenda, meetings, meeting',
    rel: 'events, event, google calendar, gcal, ical, icalendar, outlook calendar, calendly, cal.com, caldav',
  },
  { id: 'video-call', same: 'video call, video calls, video conferencing, video meeting, video meetings, webinar, webinars, conference call', rel: 'zoom, google meet, webex, microsoft teams' },
  {
    id: 'notifications',
    same: 'notification, notifications, push notification, push notifications, notify, alert me, alerts',
    rel: 'ntfy, pushover, pagerduty, gotify, apprise',
  },
  { id: 'sms', same: 'sms, text message, text messages, phone call, phone calls, voice call, phone, phones', rel: 'twilio, vonage, adb' },
  {
    id: 'social',
    same: 'social media, social network, social networks, social, tweet, tweets, posts, followers',
    rel: 'twitter, x.com, linkedin, facebook, instagram, mastodon, bluesky, reddit, tiktok, metricool, audiense',
  },
  { id: 'twitter', up: ['social'], same: 'twitter, tweet, tweets, tweeting, x.com' },
  { id: 'linkedin', up: ['social'], same: 'linkedin' },

  // ---------------------------------------------------------------- knowledge and documents
  {
    id: 'notes',
    same: 'notes, note, note-taking, notetaking, note taking, second brain, pkm, personal knowledge management, personal knowledge, journal, journaling, notebooks',
    rel: 'obsidian, notion, onenote, evernote, logseq, roam, bear, apple notes, joplin, kibela, basic memory, markdown notes, zettelkasten',
  },
  {
    id: 'wiki',
    same: 'knowledge base, knowledge bases, knowledge management, wiki, wikis, internal docs, intranet, team docs, documentation, company docs, internal documents',
    rel: 'confluence, notion, outline, kibela, glean, guru, gitbook, docusaurus, mediawiki, slab, coda',
  },
  {
    id: 'memory',
    same: 'memory, memories, remember, remembers, remembering, recall, long-term memory, persistent memory, memorize, agent memory, ai memory, forget',
    rel: 'mem0, cognee, membase, zep, letta, memgpt, rememberizer, basic memory, conversations, knowledge graph',
  },
  {
    id: 'rag',
    same: 'rag, retrieval augmented generation, retrieval-augmented generation, retrieval, document q&a, document qa, question answering, answer questions, ask questions, enterprise search, knowledge retrieval',
    rel: 'ragie, llamaindex, llamacloud, langflow, glean, needle, vectara, minima, inkeep, vertex ai search, graphlit, unstructured, vectorize, pinecone assistant, managed indexes',
  },
  {
    id: 'office',
    same: 'word document, word documents, docx, microsoft word, microsoft office, office documents, office files, documents editing',
    rel: 'word, excel, powerpoint, google docs, libreoffice, onlyoffice',
  },
  {
    id: 'slides',
    same: 'slides, slide, presentation, presentations, slide deck, slide decks, deck, decks, pptx, powerpoint, keynote',
    rel: 'google slides, python-pptx',
  },
  {
    id: 'convert',
    same: 'convert, converts, conversion, converter, converting, format conversion, document conversion, to markdown, markdownify, extract text, text extraction, document parsing, parse documents, parsing documents',
    rel: 'pandoc, markitdown, unstructured, pdf to markdown, html to markdown, ocr, pdf, pdfs, scanned, scans, docx',
  },
  { id: 'pdf', same: 'pdf, pdfs', rel: 'ocr, acrobat, scanned, scans' },
  { id: 'markdown', same: 'markdown, md', rel: 'obsidian, mdx' },
  { id: 'bookmarks', same: 'bookmark, bookmarks, bookmarking, read later, read-later, saved links, reading list', rel: 'raindrop, raindrop.io, pocket, pinboard, instapaper' },
  { id: 'flashcards', same: 'flashcards, flashcard, flash cards, spaced repetition, memorize, studying, study cards', rel: 'anki, rember, quizlet, mochi' },
  { id: 'mindmap', same: 'mind map, mind maps, mindmap, mindmaps, mind mapping, mindmapping, brainstorm, brainstorming', rel: 'xmind, miro' },
  {
    id: 'charts',
    same: 'chart, charts, charting, plot, plots, plotting, visualization, visualizations, visualisation, data visualization, diagram, diagrams, graphs, bar chart, bar charts, line chart, line charts, pie chart, pie charts, histogram, histograms, scatter plot',
    rel: 'quickchart, vega, vega-lite, vegalite, mermaid, plotly, matplotlib, d3, dashboards',
  },
  {
    id: 'academic',
    same: 'academic, academia, papers, paper, scientific, science, scholarly, scholar, research papers, citation, citations, cite, bibliography, bibliographic, publications, publication, journals, preprints, arxiv',
    rel: 'dblp, semantic scholar, pubmed, google scholar, crossref, openalex, scholarly',
  },
  { id: 'research', same: 'deep research, research, researcher, investigate, literature review', rel: 'perplexity, exa' },
  { id: 'encyclopedia', same: 'wikipedia, wikidata, encyclopedia, encyclopedic, sparql, knowledge graph', rel: 'dbpedia' },
  { id: 'dictionary', same: 'dictionary, definitions, thesaurus, synonyms' },

  // ---------------------------------------------------------------- business
  {
    id: 'payments',
    same: 'payment, payments, pay, paying, checkout, billing, invoice, invoices, invoicing, subscription, subscriptions, recurring billing, charge, charges, refunds, payouts, collect payments, accept payments',
    rel: 'stripe, paddle, chargebee, paypal, square, adyen, braintree, lemon squeezy, lemonsqueezy, recurly, saas billing',
  },
  {
    id: 'accounting',
    same: 'accounting, bookkeeping, ledger, ledgers, expenses, expense, spend, spending, invoice, invoices, payroll, receipts, financial reports, accounts payable, accounts receivable, bill pay, pay bills, bills, supplier, suppliers, vendor payments',
    rel: 'xero, quickbooks, ynab, ramp, freshbooks, sage, brex, expensify',
  },
  { id: 'budget', up: ['accounting'], same: 'budget, budgets, budgeting, personal finance, money management', rel: 'ynab, mint' },
  {
    id: 'crm',
    same: 'crm, customer relationship management, leads, lead, contacts, sales pipeline, deals, prospects, customers',
    rel: 'salesforce, hubspot, pipedrive, zoho, attio',
  },
  {
    id: 'support',
    same: 'customer support, customer service, helpdesk, help desk, support tickets, live chat, itsm, service desk',
    rel: 'intercom, zendesk, freshdesk, servicenow, devrev, help scout',
  },
  {
    id: 'marketing',
    same: 'marketing, seo, campaign, campaigns, ads, advertising, audience, audiences, copywriting, brand, influencers, growth',
    rel: 'metricool, audiense, mailchimp, google ads, hubspot, semrush, ahrefs',
  },
  {
    id: 'web-analytics',
    same: 'web analytics, website analytics, site analytics, traffic, visitors, pageviews, page views, conversion rate',
    rel: 'google analytics, plausible, umami, tianji, matomo, mixpanel, amplitude, posthog, edgee',
  },
  {
    id: 'ecommerce',
    same: 'ecommerce, e-commerce, online store, online stores, storefront, shop, shops, shopping, webshop, products catalog, product catalog',
    rel: 'shopify, woocommerce, bigcommerce, magento, amazon seller, etsy',
  },
  { id: 'esign', same: 'e-signature, e-signatures, esignature, esignatures, electronic signature, electronic signatures, sign documents, contracts, contract signing', rel: 'docusign, esignatures.com, hellosign' },
  {
    id: 'workflow-automation',
    same: 'workflow automation, automation, automations, automate, workflows, workflow, zap, zaps, no-code, nocode, low-code, lowcode, integrations platform, ipaas',
    rel: 'zapier, n8n, integromat, pipedream, dify, langflow, flowise, ifly, activepieces, integration app',
  },

  // ---------------------------------------------------------------- finance and crypto
  {
    id: 'stocks',
    same: 'stock, stocks, stock market, stock markets, equities, equity, shares, ticker, tickers, market data, stock prices, share prices, quotes, stock quotes, securities, earnings, revenue, revenues, quarterly results, quarterly earnings, financial statements, income statement, balance sheet, fundamentals, annual report, annual reports',
    rel: 'alpha vantage, alphavantage, yahoo finance, nasdaq, polygon, morningstar, financial datasets, edgar, sec filings, sec, filings, octagon',
  },
  { id: 'finance', same: 'finance, financial, fintech, banking, bank, banks, financial data, financial markets', rel: 'fdic, fred, world bank, plaid, mifos, adfin' },
  {
    id: 'economics',
    same: 'economic data, economy, economics, macroeconomic, macroeconomics, gdp, inflation, interest rates, unemployment, economic indicators',
    rel: 'fred, world bank, federal reserve, imf, oecd',
  },
  {
    id: 'trading',
    same: 'trade, trading, trader, trades, trading bot, trading bots, exchange, exchanges, order book, swap, swaps',
    rel: 'metatrader, freqtrade, paradex, hyperliquid, binance, uniswap, jupiter, pancakeswap, dex',
  },
  {
    id: 'crypto',
    same: 'crypto, cryptocurrency, cryptocurrencies, coin, coins, blockchain, blockchains, onchain, on-chain, web3, defi, dex, nft, nfts, wallet, wallets, stablecoin, stablecoins, altcoins, smart contract, smart contracts',
    rel: 'bitcoin, btc, ethereum, eth, solana, evm, bnb, bnb chain, bsc, algorand, uniswap, pancakeswap, coinmarketcap, coinbase, usdc, erc-20, erc20, thegraph, the graph, dune, whale, whales, erc-20 tokens, thirdweb'
  },

  // ---------------------------------------------------------------- media
  {
    id: 'images',
    same: 'image, images, picture, pictures, photo, photos, photograph, photographs, img, screenshots, screenshot, pics',
    rel: 'gyazo, cloudinary, unsplash, imgur, screenshotone, webcam',
  },
  {
    id: 'image-generation',
    up: ['images'],
    same: 'image generation, generate images, generate image, generating images, text to image, text-to-image, ai art, art generation, generative art, image gen, creatives',
    rel: 'flux, stable diffusion, dall-e, dalle, midjourney, replicate, placid, comfyui, imagen',
  },
  {
    id: 'video',
    same: 'video, videos, clip, clips, footage, shorts, reels, video files',
    rel: 'youtube, davinci resolve, premiere, video jungle, ffmpeg, vimeo, webcam, opencv',
  },
  {
    id: 'video-editing',
    up: ['video'],
    same: 'video editing, edit video, edit videos, edit a video, video editor, video editors, editing videos, cut video, timeline',
    rel: 'davinci resolve, premiere, final cut, video jungle, capcut',
  },
  { id: 'youtube', up: ['video'], same: 'youtube, youtube channel, youtube videos, yt' },
  {
    id: 'music',
    same: 'music, song, songs, audio, sound, sounds, musician, musical, tunes',
    rel: 'spotify, ableton, reaper, logic pro, fl studio, soundcloud, apple music',
  },
  {
    id: 'music-production',
    up: ['music'],
    same: 'daw, digital audio workstation, digital audio workstations, music production, produce music, make music, making music, beats, midi, mixing, mastering, audio production',
    rel: 'ableton, ableton live, reaper, logic pro, fl studio, bitwig, cubase, pro tools, osc',
  },
  { id: 'music-streaming', up: ['music'], same: 'playlist, playlists, music streaming, listening history', rel: 'spotify, apple music, soundcloud, deezer, tidal' },
  {
    id: 'speech',
    same: 'text to speech, text-to-speech, tts, speech, voice, voices, speech synthesis, read aloud, aloud, narrate, narration, narrator, transcribe, transcription, transcriptions, speech to text, speech-to-text, stt, dictation, voiceover',
    rel: 'elevenlabs, whisper, deepgram, assemblyai',
  },
  { id: 'movies', same: 'movies, movie, films, film, tv shows, tv series, television, cinema, actors', rel: 'tmdb, imdb, netflix, trakt' },
  {
    id: 'sports',
    same: 'sports, sport, football, soccer, basketball, baseball, nba, nfl, premier league, league standings, college football, fantasy football',
    rel: 'espn, cfbd, fantasy premier league, fpl, soccerdataapi, sportradar',
  },
  {
    id: 'games',
    same: 'video games, video game, gaming, games, game, esports, e-sports, players, player stats',
    rel: 'league of legends, dota, dota 2, opendota, chess, chess.com, riot, tft, teamfight tactics, steam, twitch',
  },
  {
    id: 'maps',
    same: 'map, maps, gis, geospatial, geographic, location, locations, geocoding, directions, places, coordinates',
    rel: 'google maps, mapbox, openstreetmap, osm, qgis, here maps',
  },
  {
    id: 'travel',
    same: 'travel, traveling, travelling, trip, trips, itinerary, itineraries, vacation, vacations, holiday, holidays, flight, flights, hotel, hotels, accommodation, accommodations, lodging, hotel booking, flight booking, tourism',
    rel: 'airbnb, amadeus, booking.com, expedia, skyscanner, flightradar, flightradar24, tripadvisor, national parks',
  },
  {
    id: 'transit',
    up: ['travel'],
    same: 'train, trains, railway, railways, rail, public transport, public transit, transit, departures, departure, arrivals, delays, delayed, disruptions, timetable, timetables, commute',
    rel: 'ns, dutch railways, deutsche bahn, amtrak, sncf',
  },
  { id: 'flights', up: ['travel'], same: 'flight tracking, flight tracker, aircraft, airplanes, planes, aviation, airports', rel: 'flightradar24, flightradar, flightaware, ads-b' },
  {
    id: 'weather',
    same: 'weather, forecast, forecasts, temperature, temperatures, rain, rainfall, climate, humidity, wind, meteorology',
    rel: 'openweather, openweathermap, weatherapi, noaa, met office',
  },
  { id: 'tickets-events', same: 'concert, concerts, live events, live music, event tickets, festivals, shows, venues', rel: 'ticketmaster, eventbrite, live nation' },
  { id: 'space', same: 'space, astronomy, nasa, mars, satellite, satellites, planets, asteroids, apod', rel: 'spacex, esa' },
  { id: 'art', same: 'art, artwork, artworks, museum, museums, paintings, painting, artists, gallery', rel: 'rijksmuseum, met museum, artsy' },
  {
    id: 'medical',
    same: 'medical, medicine, healthcare, health records, health data, clinical, patient, patients, radiology, imaging studies, hospital, doctors',
    rel: 'dicom, pacs, fhir, hl7, pubmed',
  },
  { id: 'chemistry', same: 'chemistry, chemical, chemicals, compound, compounds, molecule, molecules, drug, drugs', rel: 'pubchem, chembl' },
  {
    id: 'education',
    same: 'education, e-learning, elearning, learning platform, online learning, course, courses, quiz, quizzes, exams, lms, teaching, students',
    rel: 'edubase, moodle, canvas lms, coursera',
  },
  { id: 'fitness', same: 'fitness, workout, workouts, cycling, exercise, exercises, training activities, athletes', rel: 'strava, garmin, fitbit, peloton' },

  // ---------------------------------------------------------------- AI
  {
    id: 'llm',
    same: 'llm, llms, large language model, large language models, language model, language models, ai model, ai models, foundation model, chatbot, chatbots, reasoning model',
    rel: 'openai, gpt, chatgpt, claude, anthropic, gemini, deepseek, qwen, llama, mistral, ollama, grok, perplexity, cohere',
  },
  {
    id: 'other-model',
    up: ['llm'],
    same: 'second opinion, another model, other models, different model, different models, multiple models, multi-model, council of models, ensemble of models, model comparison, ask another ai, consult',
    rel: 'deepseek, qwen, gemini, gpt, openai, mistral, grok, multi-ai, advisor',
  },
  {
    id: 'agent-framework',
    same: 'agent framework, agent frameworks, agentic framework, build agents, building agents, agent sdk, multi-agent, multi agent, agents-as-a-service',
    rel: 'langchain, langgraph, crewai, autogen, heurist, goat, agentkit, agent toolkit',
  },
  {
    id: 'mlops',
    same: 'mlops, ml pipelines, machine learning, ml, model training, experiment tracking, model registry, ml models, deep learning',
    rel: 'zenml, mlflow, wandb, weights & biases, comet, huggingface, kubeflow',
  },
  { id: 'huggingface', same: 'hugging face, huggingface, hf, hf spaces, spaces', rel: 'datasets, gradio, transformers' },
  { id: 'datasets', same: 'dataset, datasets, open data, data sets, public data', rel: 'hugging face, kaggle, world bank, data.gov' },
  { id: 'prompts', same: 'prompt, prompts, prompt management, prompt engineering, prompt templates', rel: 'langfuse' },

  // ---------------------------------------------------------------- the MCP ecosystem itself
  {
    id: 'mcp-directory',
    same: 'mcp directory, mcp registry, server directory, mcp marketplace, awesome list, curated list, discover servers, find servers, server list, marketplace, registry, catalog of servers',
    rel: 'awesome-mcp-servers, awesome mcp servers, mcp.so, smithery, glama, mcp hub, mcphub',
  },
  {
    id: 'mcp-proxy',
    same: 'proxy, proxies, gateway, gateways, mcp router, aggregate servers, aggregator, transport bridge',
    rel: 'mcp-proxy, higress, wanaku, mcp-guardian, stdio, sse, streamable http',
  },
  {
    id: 'mcp-framework',
    same: 'framework, frameworks, sdk, sdks, library, libraries, template, templates, boilerplate, starter, build mcp servers, building mcp servers',
    rel: 'fastmcp, fastapi, quarkus, easy-mcp, foxy contexts, mcp-go',
  },

  // ---------------------------------------------------------------- misc capabilities
  { id: 'math', same: 'calculator, calculate, calculation, calculations, math, mathematics, arithmetic, equations', rel: 'wolfram, wolfram alpha' },
  { id: 'optimization', same: 'constraint solving, constraint solver, constraint programming, optimization, optimisation, solver, solvers, sat, smt, linear programming', rel: 'minizinc, z3, or-tools, pysat' },
  {
    id: 'translation',
    same: 'translate, translates, translation, translations, translator, localization, localisation, localize, i18n, l10n, multilingual',
    rel: 'deepl, lara, lingo.dev, google translate, crowdin, spanish, french, german, italian, portuguese, dutch, russian, chinese, japanese, korean, arabic, hindi, turkish, polish',
  },
  {
    id: 'auth',
    same: 'authentication, auth, login, logins, log in, sign-in, sign in, signin, sso, single sign-on, identity, identities, iam, user management, user accounts, oauth, oidc, mfa, passwords, access management, realms',
    rel: 'okta, auth0, keycloak, descope, clerk, cognito, entra, azure ad, ory, fusionauth',
  },
  {
    id: 'cms',
    same: 'cms, content management, content management system, blog, blogs, blogging, blog posts, headless cms, publishing',
    rel: 'wordpress, ghost, contentful, drupal, strapi, sanity, webflow, devhub, payload',
  },
  { id: 'website-builder', same: 'website builder, site builder, landing page, landing pages, web design, no-code website', rel: 'webflow, framer, wix, squarespace' },
  {
    id: 'frontend',
    same: 'ui components, ui component, component library, design system, frontend, front-end, ui, user interface, react components, tailwind',
    rel: 'shadcn, starwind, 21st, magic, v0, astro',
  },
  { id: 'design', same: 'ui design, ux design, graphic design, design files, mockup, mockups, wireframe, wireframes, design tool', rel: 'figma, sketch, penpot, canva, adobe xd' },
  {
    id: 'macos',
    same: 'macos, mac, osx, apple, applescript, shortcuts, siri, siri shortcuts, finder',
    rel: 'imessage, apple notes, apple calendar, iterm, hyprland',
  },
  { id: 'windows', same: 'windows, win32, powershell, cmd.exe, windows systems' },
  { id: 'linux', same: 'linux, ubuntu, debian, unix, wayland, hyprland, hyprctl', rel: 'systemd' },
  { id: 'json', same: 'json, jsonpath, jq, json data, json files', rel: 'yaml' },
  { id: 'email-sending', up: ['email'], same: 'send email, send emails, sending email, transactional email, email delivery, email api', rel: 'mailgun, sendgrid, postmark, resend, ses' },
];
