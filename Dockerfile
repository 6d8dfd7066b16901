# Build stage: install everything, build the app.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

# Run stage: the built app, production packages, migrations; `npm start` migrates then serves.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json /app/tsconfig.json /app/remix.config.js ./
COPY --from=build /app/server ./server
COPY --from=build /app/db ./db
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/app ./app
COPY --from=build /app/public ./public
EXPOSE 3000
CMD ["npm", "start"]
